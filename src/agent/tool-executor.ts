import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import type { ToolResultBlock } from "../llm/types.js";
import * as prompts from "./task-prompts.js";
import type { Say } from "../protocol/index.js";
import type { ApprovalAnswer, ApprovalPolicy } from "./approval.js";
import type { ToolContext, ToolHandler, ToolResult } from "./tool.js";
import type { UiMessageLog } from "./ui-messages.js";

/** A complete tool call as parsed from the model's reply. */
export interface ToolCallRequest {
  id: string;
  name: string;
  input: unknown;
  /** Set when the arguments were not valid JSON. */
  parseError?: string;
}

export interface ToolCallOutcome {
  result: ToolResultBlock;
  /** True when the call counts as a mistake (unknown tool, bad arguments, failed tool). */
  mistake: boolean;
  completion?: { result: string };
}

export interface ToolExecutorOptions {
  taskId: string;
  tools: readonly ToolHandler[];
  policy: ApprovalPolicy;
  ui: UiMessageLog;
  signal: AbortSignal;
  /** The task's current mode: plan mode refuses tools that change anything. */
  getMode?: () => "plan" | "act";
  requestApproval(tool: ToolHandler, input: unknown, callId: string): Promise<ApprovalAnswer>;
  askUser(question: string, options?: string[]): Promise<string>;
}

// English messages for validation errors (zod/mini loads no locale by itself).
z.config(en());

const OUTPUT_PREVIEW_CHARS = 4000;
const PROGRESS_INTERVAL_MS = 50;

/**
 * Runs tool calls through the pipeline: unknown tool -> argument parse -> validation ->
 * approval -> handler. Every outcome, including a throw, becomes a tool result the model
 * can act on; nothing here throws.
 */
export function createToolExecutor(options: ToolExecutorOptions) {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));

  const errorOutcome = (callId: string, text: string, mistake = true): ToolCallOutcome => ({
    result: { type: "tool_result", callId, content: [{ type: "text", text }], isError: true },
    mistake,
  });

  async function execute(call: ToolCallRequest): Promise<ToolCallOutcome> {
    const tool = byName.get(call.name);
    if (!tool) {
      const names = [...byName.keys()].join(", ");
      options.ui.say({
        say: "tool",
        tool: call.name,
        callId: call.id,
        summary: call.name,
        input: call.input,
        status: "error",
        output: "unknown tool",
      });
      return errorOutcome(call.id, `Unknown tool "${call.name}". Available tools: ${names}.`);
    }
    if (call.parseError !== undefined) {
      options.ui.say(toolSay(tool.name, call.id, tool.name, call.input, "error", call.parseError));
      return errorOutcome(
        call.id,
        `The arguments of ${tool.name} were not valid JSON (${call.parseError}). Call the tool again with a JSON object matching its schema.`,
      );
    }
    const parsed = z.safeParse(tool.inputSchema, call.input ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((issue) => `- ${issue.path.join(".") || "(input)"}: ${issue.message}`)
        .join("\n");
      options.ui.say(toolSay(tool.name, call.id, tool.name, call.input, "error", problems));
      return errorOutcome(
        call.id,
        `Invalid arguments for ${tool.name}:\n${problems}\nFix the arguments and call the tool again.`,
      );
    }
    const input = parsed.data;
    const summary = safeSummary(tool, input);
    let message = options.ui.say(toolSay(tool.name, call.id, summary, input, "pending"));

    if (tool.mutates && options.getMode?.() === "plan") {
      const refusal = prompts.planModeRefusal(tool.name);
      options.ui.update(message, toolSay(tool.name, call.id, summary, input, "denied", refusal));
      return errorOutcome(call.id, refusal, false);
    }

    const decision = options.policy(tool, input);
    let denial: string | undefined;
    if (decision.type === "deny") denial = decision.reason;
    if (decision.type === "ask") {
      const answer = await options.requestApproval(tool, input, call.id);
      if (!answer.approved) {
        denial = answer.feedback
          ? `The user denied this operation and said:\n<feedback>\n${answer.feedback}\n</feedback>`
          : "The user denied this operation.";
      }
    }
    if (denial !== undefined) {
      options.ui.update(message, toolSay(tool.name, call.id, summary, input, "denied", denial));
      return errorOutcome(call.id, denial, false);
    }

    message = options.ui.update(message, toolSay(tool.name, call.id, summary, input, "running"), true);
    let output = "";
    let lastProgress = 0;
    const ctx: ToolContext = {
      taskId: options.taskId,
      callId: call.id,
      signal: options.signal,
      askUser: options.askUser,
      onProgress(progress) {
        output += progress.text;
        const now = Date.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
        lastProgress = now;
        message = options.ui.update(
          message,
          toolSay(tool.name, call.id, summary, input, "running", tail(output)),
          true,
        );
      },
    };

    let result: ToolResult;
    try {
      result = await tool.execute(input, ctx);
    } catch (error) {
      const text = `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`;
      options.ui.update(message, toolSay(tool.name, call.id, summary, input, "error", text));
      return errorOutcome(call.id, text);
    }
    const content =
      typeof result.content === "string" ? [{ type: "text" as const, text: result.content }] : result.content;
    const text = content
      .map((block) => (block.type === "text" ? block.text : `[${block.mediaType} image]`))
      .join("\n");
    options.ui.update(message, {
      ...toolSay(tool.name, call.id, summary, input, result.isError ? "error" : "done", tail(text)),
      details: result.details,
    });
    return {
      result: { type: "tool_result", callId: call.id, content, isError: result.isError || undefined },
      mistake: result.isError === true,
      completion: result.completion,
    };
  }

  return { execute, tools: byName };
}

type ToolSay = Extract<Say, { say: "tool" }>;

function toolSay(
  tool: string,
  callId: string,
  summary: string,
  input: unknown,
  status: ToolSay["status"],
  output?: string,
): ToolSay {
  return { say: "tool", tool, callId, summary, input, status, output };
}

function safeSummary(tool: ToolHandler, input: unknown): string {
  try {
    return tool.summarize(input);
  } catch {
    return tool.name;
  }
}

function tail(text: string): string {
  return text.length <= OUTPUT_PREVIEW_CHARS ? text : `…${text.slice(-OUTPUT_PREVIEW_CHARS)}`;
}

export type ToolExecutor = ReturnType<typeof createToolExecutor>;

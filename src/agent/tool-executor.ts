import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import type { ToolResultBlock } from "../llm/types.js";
import type { Say } from "../protocol/index.js";
import type { ApprovalAnswer, ApprovalPolicy } from "./approval.js";
import type { Coordinator } from "./pipeline/coordinator.js";
import type { HookRunner } from "./pipeline/hooks.js";
import { toolCategory } from "./pipeline/tool-category.js";
import * as prompts from "./task-prompts.js";
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
  condense?: { summary: string };
  /** Set when a PostToolUse hook asked to stop the task after this turn's results are recorded. */
  stopAfter?: string;
  /** True when the person rejected the call (the rest of the message is skipped). */
  rejected?: boolean;
}

export interface ToolExecutorOptions {
  taskId: string;
  /** Routes a called name to its handler (MCP and subagent names included). */
  coordinator: Coordinator;
  policy: ApprovalPolicy;
  ui: UiMessageLog;
  signal: AbortSignal;
  hooks?: HookRunner;
  /** Receives the model usage a call spent itself (subagents), for the task's totals. */
  spentUsage?(usage: NonNullable<ToolResult["usage"]>): void;
  /** The task's current mode: plan mode refuses tools that change anything. */
  getMode?: () => "plan" | "act";
  /**
   * Whether a call that `mutates` may still run in plan mode (e.g. a read-only shell command).
   * Default: never.
   */
  allowedInPlanMode?: (tool: ToolHandler, input: unknown) => boolean;
  /** Awaited before a tool that mutates runs (e.g. the baseline checkpoint must be taken first). */
  beforeMutation?: () => Promise<void>;
  requestApproval(tool: ToolHandler, input: unknown, callId: string): Promise<ApprovalAnswer>;
  askUser(question: string, options?: string[]): Promise<string>;
}

// English messages for validation errors (zod/mini loads no locale by itself).
z.config(en());

const OUTPUT_PREVIEW_CHARS = 4000;
const PROGRESS_INTERVAL_MS = 50;

/**
 * Runs tool calls through the pipeline: unknown tool -> argument parse -> validation ->
 * plan-mode restriction -> approval -> PreToolUse hooks -> handler (through the coordinator)
 * -> PostToolUse hooks. Every outcome, including a throw, becomes a tool result the model
 * can act on; nothing here throws. (Loop detection and rejected-message skipping are the
 * loop's, since they span calls.)
 */
export function createToolExecutor(options: ToolExecutorOptions) {
  const { coordinator } = options;
  const hooks = options.hooks;
  const notice = (text: string) => options.ui.say({ say: "notice", text });
  const reportProblems = (problems: readonly string[]) => {
    for (const problem of problems) notice(`Hook problem: ${problem}`);
  };

  /** Validates a call's input; undefined when the call cannot run (unknown tool, bad JSON or schema). */
  function validate(call: ToolCallRequest): { tool: ToolHandler; input: unknown } | undefined {
    const tool = coordinator.getHandler(call.name);
    if (!tool || call.parseError !== undefined) return undefined;
    const parsed = z.safeParse(tool.inputSchema, call.input ?? {});
    return parsed.success ? { tool, input: parsed.data } : undefined;
  }

  /**
   * True when the call can run beside other such calls: it changes nothing and needs no
   * question (so two approval prompts are never open at once).
   */
  function isConcurrentSafe(call: ToolCallRequest): boolean {
    const valid = validate(call);
    // Only reads: completion, questions and anything that mutates run one at a time, in order.
    if (!valid || valid.tool.mutates || toolCategory(valid.tool) !== "read") return false;
    return options.policy(valid.tool, valid.input, call.name).type === "allow";
  }

  const errorOutcome = (callId: string, text: string, mistake = true): ToolCallOutcome => ({
    result: { type: "tool_result", callId, content: [{ type: "text", text }], isError: true },
    mistake,
  });

  /**
   * The approval rules on a call, asking the person when they say so: `denied` holds the
   * denial's text; `asked` says the person was asked.
   */
  async function approve(
    tool: ToolHandler,
    input: unknown,
    call: ToolCallRequest,
  ): Promise<{ denied?: string; asked: boolean }> {
    const decision = options.policy(tool, input, call.name);
    if (decision.type === "deny") return { denied: decision.reason, asked: false };
    if (decision.type === "allow") return { asked: false };
    const answer = await options.requestApproval(tool, input, call.id);
    if (answer.approved) return { asked: true };
    const denied = answer.feedback
      ? `The user denied this operation and said:\n<feedback>\n${answer.feedback}\n</feedback>`
      : "The user denied this operation.";
    return { denied, asked: true };
  }

  async function execute(call: ToolCallRequest): Promise<ToolCallOutcome> {
    const tool = coordinator.getHandler(call.name);
    if (!tool) {
      const names = coordinator.availableNames().join(", ");
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
      const problems = formatIssues(parsed.error.issues);
      options.ui.say(toolSay(tool.name, call.id, tool.name, call.input, "error", problems));
      return errorOutcome(
        call.id,
        `Invalid arguments for ${tool.name}:\n${problems}\nFix the arguments and call the tool again.`,
      );
    }
    let input: unknown = parsed.data;
    const summary = safeSummary(tool, input);
    let message = options.ui.say(toolSay(tool.name, call.id, summary, input, "pending"));

    if (tool.prepare) await tool.prepare().catch(() => undefined);
    const planModeBlocks = tool.mutates && !(options.allowedInPlanMode?.(tool, input) ?? false);
    const mode = options.getMode?.();
    const wrongMode =
      planModeBlocks && mode === "plan"
        ? prompts.planModeRefusal(tool.name)
        : tool.planModeOnly && mode === "act"
          ? prompts.actModeRefusal(tool.name)
          : undefined;
    if (wrongMode !== undefined) {
      options.ui.update(message, toolSay(tool.name, call.id, summary, input, "denied", wrongMode));
      return errorOutcome(call.id, wrongMode, false);
    }

    const approval = await approve(tool, input, call);
    if (approval.denied !== undefined) {
      options.ui.update(message, toolSay(tool.name, call.id, summary, input, "denied", approval.denied));
      return { ...errorOutcome(call.id, approval.denied, false), rejected: approval.asked };
    }

    if (hooks) {
      const pre = await hooks.run(
        "PreToolUse",
        { taskId: options.taskId, tool: call.name, input },
        { signal: options.signal },
      );
      reportProblems(pre.problems);
      if (pre.block) {
        const text = `Blocked by a PreToolUse hook: ${pre.block.reason}`;
        options.ui.update(message, toolSay(tool.name, call.id, summary, input, "denied", text));
        return errorOutcome(call.id, text, false);
      }
      if (pre.input !== undefined) {
        const rewritten = z.safeParse(tool.inputSchema, pre.input);
        if (!rewritten.success) {
          const text = `A PreToolUse hook rewrote the input of ${tool.name} into something invalid:\n${formatIssues(rewritten.error.issues)}`;
          options.ui.update(message, toolSay(tool.name, call.id, summary, input, "error", text));
          return errorOutcome(call.id, text, false);
        }
        input = rewritten.data;
        notice(`A PreToolUse hook changed the input of ${tool.name}.`);
        // What runs is the rewritten call: it passes the rules again (and is asked about if they ask).
        const recheck = await approve(tool, input, call);
        if (recheck.denied !== undefined) {
          const text = `After a PreToolUse hook rewrote it: ${recheck.denied}`;
          options.ui.update(message, toolSay(tool.name, call.id, summary, input, "denied", text));
          return errorOutcome(call.id, text, false);
        }
      }
    }

    if (tool.mutates) await options.beforeMutation?.();
    message = options.ui.update(message, toolSay(tool.name, call.id, summary, input, "running"), true);
    const started = Date.now();
    let output = "";
    let lastProgress = 0;
    const ctx: ToolContext = {
      taskId: options.taskId,
      callId: call.id,
      toolName: call.name,
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
      result = await coordinator.execute(call.name, input, ctx);
    } catch (error) {
      const text = `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`;
      options.ui.update(message, toolSay(tool.name, call.id, summary, input, "error", text));
      return errorOutcome(call.id, text);
    }
    const content =
      typeof result.content === "string" ? [{ type: "text" as const, text: result.content }] : result.content;
    let text = content
      .map((block) => (block.type === "text" ? block.text : `[${block.mediaType} image]`))
      .join("\n");
    let stopAfter: string | undefined;
    if (hooks) {
      const post = await hooks.run(
        "PostToolUse",
        {
          taskId: options.taskId,
          tool: call.name,
          input,
          result: { content: text, isError: result.isError === true },
          durationMs: Date.now() - started,
        },
        { signal: options.signal },
      );
      reportProblems(post.problems);
      if (post.context) {
        content.push({
          type: "text",
          text: `<hook_context source="PostToolUse">\n${post.context}\n</hook_context>`,
        });
        text += `\n${post.context}`;
      }
      if (post.block) stopAfter = `Stopped by a PostToolUse hook: ${post.block.reason}`;
    }
    if (result.usage) options.spentUsage?.(result.usage);
    options.ui.update(message, {
      ...toolSay(tool.name, call.id, summary, input, result.isError ? "error" : "done", tail(text)),
      details: result.details,
      ...(result.usage ? { usage: result.usage } : {}),
    });
    return {
      result: { type: "tool_result", callId: call.id, content, isError: result.isError || undefined },
      mistake: result.isError === true,
      completion: result.completion,
      condense: result.condense,
      stopAfter,
    };
  }

  return { execute, isConcurrentSafe };
}

function formatIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues.map((issue) => `- ${issue.path.join(".") || "(input)"}: ${issue.message}`).join("\n");
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

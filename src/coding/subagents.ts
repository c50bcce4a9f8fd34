import { join } from "node:path";
import type { ApprovalPolicy } from "../agent/approval.js";
import { createTask } from "../agent/task.js";
import type { ToolHandler } from "../agent/tool.js";
import type { ModelClient } from "../llm/types.js";
import { createFileJournal } from "./session/file-journal.js";
import { prepareToolOffer } from "./tool-offer.js";
import type { SubagentRun } from "./tools/use-subagents.js";

/** Tools a subagent may use: it reads and reports, it never changes anything. */
const SUBAGENT_TOOLS = new Set([
  "read_file",
  "list_files",
  "search_files",
  "list_code_definition_names",
  "attempt_completion",
]);

export const DEFAULT_SUBAGENT_TOKEN_BUDGET = 150_000;

const SUBAGENT_ROLE = `# You are a subagent
Another agent gave you one research task. You can read, list and search files; you cannot change anything or ask the user. Work quickly, then call attempt_completion with a concise report: what you found, with file paths and line numbers, and nothing else.`;

export interface SubagentRunnerOptions {
  parentTaskId: string;
  taskDir: string;
  model: ModelClient;
  tools: readonly ToolHandler[];
  workspaceRoot: string;
  shell: string;
  policy: ApprovalPolicy;
  tokenBudget?: number;
  /** Progress lines for the person (a subagent started or finished). */
  notice(text: string): void;
}

/** Runs one read-only subagent loop per call; each is journaled under `<task>/subagents/<n>/`. */
export function createSubagentRunner(options: SubagentRunnerOptions) {
  let count = 0;
  const tools = options.tools.filter((tool) => SUBAGENT_TOOLS.has(tool.name));
  return async function runSubagent(prompt: string, signal: AbortSignal): Promise<SubagentRun> {
    const n = ++count;
    const prepared = prepareToolOffer({
      tools,
      wireFormat: options.model.config.wireFormat,
      model: options.model.config.model,
      workspaceRoot: options.workspaceRoot,
      shell: options.shell,
      mode: "act",
      yolo: true,
      isSubagent: true,
      promptSections: [SUBAGENT_ROLE],
    });
    const journal = createFileJournal(join(options.taskDir, "subagents", String(n)));
    const task = createTask({
      taskId: `${options.parentTaskId}-subagent-${n}`,
      model: options.model,
      tools: prepared.tools,
      toolOffer: prepared.offer,
      systemPrompt: prepared.systemPrompt,
      // Read-only tools only; anything the settings would ask about is refused (nobody to ask).
      policy: (tool, input) => {
        const decision = options.policy(tool, input);
        return decision.type === "ask"
          ? { type: "deny", reason: "A subagent cannot ask for approval." }
          : decision;
      },
      emit: () => undefined,
      journal,
      interactive: false,
      tokenBudget: options.tokenBudget ?? DEFAULT_SUBAGENT_TOKEN_BUDGET,
    });
    const onAbort = () => task.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    options.notice(`Subagent ${n} started: ${prompt.slice(0, 100)}`);
    try {
      const outcome = await task.start(prompt);
      const usage = task.usage;
      const tokens = usage.inputTokens + usage.outputTokens;
      const cost = usage.costUsd !== undefined ? `, $${usage.costUsd.toFixed(4)}` : "";
      options.notice(`Subagent ${n} ${outcome.status} (${tokens} tokens${cost}).`);
      if (outcome.status === "completed") return { status: "completed", text: outcome.result, tokens, usage };
      if (outcome.status === "aborted") return { status: "aborted", text: "Aborted.", tokens, usage };
      const last = lastAssistantText(task.history);
      const text = `${outcome.message}${last ? `\nLast notes:\n${last}` : ""}`;
      return { status: "failed", text, tokens, usage };
    } finally {
      signal.removeEventListener("abort", onAbort);
      await journal.close();
    }
  };
}

function lastAssistantText(
  history: ReadonlyArray<{ role: string; content: Array<{ type: string; text?: string }> }>,
): string {
  const message = [...history].reverse().find((m) => m.role === "assistant");
  return message?.content.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n") ?? "";
}

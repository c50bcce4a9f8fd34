import type { ToolResultBlock } from "../llm/types.js";
import type { FocusChain } from "./focus-chain.js";
import type { Coordinator } from "./pipeline/coordinator.js";
import { runCalls } from "./pipeline/schedule.js";
import * as prompts from "./task-prompts.js";
import { refuseCompletion } from "./task-util.js";
import type { ToolCallOutcome, ToolCallRequest, ToolExecutor } from "./tool-executor.js";
import type { UiMessageLog } from "./ui-messages.js";

export interface ReplyToolCallsContext {
  executor: ToolExecutor;
  coordinator: Coordinator;
  ui: UiMessageLog;
  focus?: FocusChain;
  /** The XML protocol allows one call per message (later ones are often hallucinated). */
  oneCallPerMessage: boolean;
  aborted(): boolean;
}

export interface ReplyToolCalls {
  /** One result per call, in call order (skipped calls get a result saying why). */
  results: ToolResultBlock[];
  /** Calls that ran, with their outcomes, in call order. */
  done: Array<{ call: ToolCallRequest; outcome: ToolCallOutcome }>;
  /** Extra text for the model after the results (e.g. loop warnings). */
  notes: string[];
  completion?: string;
  condensed?: string;
  stopReason?: string;
}

/**
 * Runs the tool calls of one reply: read-only ones side by side, the rest one at a time in
 * order; stops after a completion, a rejection or an abort (later calls get a result that says
 * so); refuses a completion that the model cannot have checked yet (a change in the same reply,
 * or open focus-chain items).
 */
export async function runReplyToolCalls(
  calls: ToolCallRequest[],
  context: ReplyToolCallsContext,
): Promise<ReplyToolCalls> {
  const { executor, coordinator, ui, focus } = context;
  const runnable = context.oneCallPerMessage ? calls.slice(0, 1) : calls;
  let completion: string | undefined;
  let condensed: string | undefined;
  let rejected = false;
  const changedBy: string[] = [];
  const scheduled = await runCalls<ToolCallRequest, ToolCallOutcome>(runnable, {
    isReadOnly: (call) => executor.isConcurrentSafe(call),
    run: async (call) => {
      if (focus?.take(call.input)) ui.say({ say: "task_progress", text: focus.checklist! });
      let outcome = await executor.execute(call);
      const open = focus?.openItems() ?? [];
      if (outcome.completion && open.length > 0) {
        outcome = refuseCompletion(call.id, prompts.completionWithOpenItems(open));
      }
      if (outcome.completion && changedBy.length > 0) {
        // The model has not seen what its own changes did yet: it must check before finishing.
        outcome = refuseCompletion(call.id, prompts.completionBeforeResults(changedBy));
      }
      if (!outcome.result.isError && coordinator.getHandler(call.name)?.mutates) changedBy.push(call.name);
      if (outcome.completion) completion = outcome.completion.result;
      if (outcome.condense) condensed = outcome.condense.summary;
      if (outcome.rejected) rejected = true;
      return outcome;
    },
    shouldStop: () => context.aborted() || completion !== undefined || rejected,
  });
  const results: ToolResultBlock[] = [];
  const done: ReplyToolCalls["done"] = [];
  let stopReason: string | undefined;
  calls.forEach((call, index) => {
    const entry = scheduled[index];
    if (entry?.status !== "done") {
      const text = !entry
        ? prompts.oneToolPerMessage
        : entry.status === "error"
          ? `${call.name} failed: ${String(entry.error)}`
          : completion !== undefined
            ? prompts.skippedAfterCompletion
            : rejected
              ? prompts.skippedAfterRejection
              : prompts.interruptedByUser;
      results.push({
        type: "tool_result",
        callId: call.id,
        content: [{ type: "text", text }],
        isError: true,
      });
      return;
    }
    results.push(entry.value.result);
    done.push({ call, outcome: entry.value });
    stopReason ??= entry.value.stopAfter;
  });
  return { results, done, notes: [], completion, condensed, stopReason };
}

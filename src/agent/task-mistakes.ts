/**
 * What stops a task that is getting nowhere or costing too much: consecutive mistakes (calls
 * that failed validation, replies without a usable tool call), loops of the same calls, and the
 * budgets. With someone to ask, the task pauses with a question and goes on if they say so (with
 * their guidance, or another budget's worth); otherwise it fails with a stable code.
 */
import type { ContentBlock } from "../llm/types.js";
import { extendedLimits, limitReached, type TaskLimits } from "./limits.js";
import { createLoopDetector } from "./pipeline/loop-detection.js";
import type { TaskOutcome } from "./task.js";
import type { AskChannel } from "./task-asks.js";
import * as prompts from "./task-prompts.js";
import type { PricedUsage } from "./task-util.js";
import type { ToolCallOutcome, ToolCallRequest } from "./tool-executor.js";

export interface TaskGuardOptions {
  maxMistakes: number;
  interactive: boolean;
  ask: AskChannel["ask"];
  limits?: TaskLimits;
  /** The task's running usage (read, never written). */
  usage: PricedUsage;
  turns(): number;
}

export function createTaskGuard(options: TaskGuardOptions) {
  const loopDetector = createLoopDetector();
  let mistakes = 0;
  let lastMistake = "";
  /** Set when loop detection escalates; handled before the next request like the mistake limit. */
  let loopEscalation: string | undefined;
  let limits: TaskLimits = options.limits ?? {};

  /** Asks whether to go on after `message`; the outcome when the task must stop. */
  async function askToGoOn(
    code: "loop_detected" | "mistake_limit",
    message: string,
    pending: ContentBlock[],
  ): Promise<TaskOutcome | undefined> {
    if (!options.interactive) return { status: "failed", code, message };
    const answer = await options.ask({ ask: "mistake_limit", message });
    if (answer.response === "deny") return { status: "failed", code, message };
    if (answer.text) pending.push({ type: "text", text: prompts.mistakeFeedback(answer.text) });
    return undefined;
  }

  return {
    /** A reply the loop could not use (no tool called, a call cut off); `what` says what went wrong. */
    replyMistake(what: string): void {
      mistakes++;
      lastMistake = what;
    },
    /** Records the calls of a reply that ran; returns what to tell the model (loop warnings). */
    recordCalls(done: ReadonlyArray<{ call: ToolCallRequest; outcome: ToolCallOutcome }>): string[] {
      const notes: string[] = [];
      for (const { call, outcome } of done) {
        if (outcome.mistake) {
          mistakes++;
          const first = outcome.result.content[0];
          lastMistake = `${call.name}: ${first?.type === "text" ? first.text.split("\n")[0] : "error"}`;
        } else if (!outcome.result.isError) {
          mistakes = 0;
        }
        const check = loopDetector.record(call.name, call.input, outcome.result.isError ? "error" : "ok");
        if (check.kind === "warning") notes.push(check.message);
        if (check.kind === "escalate") loopEscalation = check.message;
      }
      return notes;
    },
    /** The person sent a message: earlier mistakes no longer count. */
    forgiveMistakes(): void {
      mistakes = 0;
    },
    /**
     * Before a request: a loop escalation or the mistake limit pauses (or stops) the task. The
     * person's guidance, if any, is added to `pending`. Returns an outcome when the task must stop.
     */
    async checkMistakes(pending: ContentBlock[]): Promise<TaskOutcome | undefined> {
      if (loopEscalation !== undefined) {
        const message = loopEscalation;
        loopEscalation = undefined;
        const stop = await askToGoOn("loop_detected", message, pending);
        if (!stop) loopDetector.reset();
        return stop;
      }
      if (mistakes < options.maxMistakes) return undefined;
      const message = `Stopped after ${mistakes} consecutive mistakes. Last: ${lastMistake}`;
      const stop = await askToGoOn("mistake_limit", message, pending);
      if (!stop) mistakes = 0;
      return stop;
    },
    /** Before a request: a reached budget pauses the task; the person may grant another budget's worth. */
    async checkLimits(): Promise<TaskOutcome | undefined> {
      const message = limitReached(limits, options.usage, options.turns());
      if (!message) return undefined;
      if (!options.interactive) return { status: "failed", code: "budget_exhausted", message };
      const answer = await options.ask({ ask: "limit_reached", message });
      if (answer.response !== "approve") return { status: "failed", code: "budget_exhausted", message };
      limits = extendedLimits(limits, options.limits ?? {}, options.usage, options.turns());
      return undefined;
    },
  };
}

export type TaskGuard = ReturnType<typeof createTaskGuard>;

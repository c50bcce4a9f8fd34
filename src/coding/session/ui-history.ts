import type { UiJournalRecord } from "../../agent/journal.js";
import { addUsage, ZERO_USAGE } from "../../agent/task-util.js";
import type { UiMessage, Usage } from "../../protocol/index.js";

/** How a task stands, as far as its UI messages tell. */
export type TaskListStatus = "completed" | "failed" | "aborted" | "unfinished";

/**
 * The UI history: each message id in its latest state, in order of first appearance. `initial`
 * (a fork's inherited messages) comes first; a record for one of its ids updates it in place.
 */
export function latestUiMessages(records: readonly UiJournalRecord[], initial: readonly UiMessage[] = []) {
  const messages = [...initial];
  const indexById = new Map(messages.map((message, index) => [message.id, index]));
  for (const { message } of records) {
    const index = indexById.get(message.id);
    if (index === undefined) {
      indexById.set(message.id, messages.length);
      messages.push(message);
    } else {
      messages[index] = message;
    }
  }
  return messages;
}

/**
 * How many distinct UI messages had been journaled at each of `times` (ascending): the `uiCount`
 * of entries written before the count was recorded (v1).
 */
export function uiCountsAt(records: readonly UiJournalRecord[], times: readonly number[]): number[] {
  const seen = new Set<string>();
  const counts: number[] = [];
  let next = 0;
  for (const time of times) {
    while (next < records.length && records[next]!.ts <= time) seen.add(records[next++]!.message.id);
    counts.push(seen.size);
  }
  return counts;
}

/** The sum of the usage of every finished model request, a subagent's included. */
export function usageTotals(messages: readonly UiMessage[]): Usage {
  const total: Usage = { ...ZERO_USAGE };
  for (const message of messages) {
    if (message.type !== "say" || message.partial) continue;
    // Model requests, and the tool calls that made requests of their own (subagents).
    const payload = message.payload;
    const usage = payload.say === "api_request" || payload.say === "tool" ? payload.usage : undefined;
    if (usage) addUsage(total, usage);
  }
  return total;
}

export const totalTokens = (usage: Usage) =>
  usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;

/** Turns: model requests, counting retries of one request once (they share its `index`). */
export function countTurns(messages: readonly UiMessage[]): number {
  const indexes = new Set<number>();
  for (const message of messages) {
    if (message.type === "say" && message.payload.say === "api_request" && !message.discarded) {
      indexes.add(message.payload.index);
    }
  }
  return indexes.size;
}

const BACKGROUND_SAYS = new Set(["api_request", "api_retry", "notice", "task_progress", "reasoning"]);

/** From the last visible message that is not background: completed, failed, aborted or unfinished. */
export function taskStatus(messages: readonly UiMessage[]): TaskListStatus | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.discarded || (message.type === "say" && BACKGROUND_SAYS.has(message.payload.say))) continue;
    if (message.type === "say" && message.payload.say === "completion_result") return "completed";
    if (message.type === "say" && message.payload.say === "error") {
      return message.payload.code === "aborted" ? "aborted" : "failed";
    }
    return "unfinished";
  }
  return undefined;
}

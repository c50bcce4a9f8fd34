import type { LlmMessage } from "../llm/types.js";

/**
 * What to keep when a request overflowed the model's context window: the first message (the
 * task) and the most recent turns, dropping about `fraction` of the turns in between.
 *
 * History alternates user/assistant starting with the user, so dropping an even number of
 * messages right after the first keeps the alternation, and every kept tool result still
 * follows the assistant message that made its call. Returns undefined when nothing can be
 * dropped (the history is already just the task and the latest turn).
 */
export function truncatedHistory(history: readonly LlmMessage[], fraction = 0.5): LlmMessage[] | undefined {
  // Keep the first message and at least the last user message (the request being answered).
  const droppable = history.length - 2;
  if (droppable < 2) return undefined;
  let drop = Math.max(2, Math.floor((droppable * fraction) / 2) * 2);
  if (drop > droppable) drop = droppable - (droppable % 2);
  return [history[0]!, ...history.slice(1 + drop)];
}

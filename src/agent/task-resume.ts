/**
 * Going on from a stop the loop did not finish itself (a crash, a kill, a restart) and going
 * back to a checkpoint: the history is put in a state the next request can follow.
 */
import type { ContentBlock } from "../llm/types.js";
import { checkpointEntry, type MessageStore } from "./message-store.js";
import * as prompts from "./task-prompts.js";
import type { UiMessageLog } from "./ui-messages.js";

/**
 * What the history needs before it can go on after a stop: a trailing user message is taken
 * back (its content opens the next one, so two user messages never follow each other), and the
 * calls of a trailing assistant message get "interrupted" results; their UI rows say so too.
 * Returns the content the next user message starts with.
 */
export function interruptedCalls(store: MessageStore, ui: UiMessageLog): ContentBlock[] {
  const last = store.history.at(-1);
  if (!last) return [];
  if (last.role === "user") {
    store.rewindTo(store.entryIds.at(-2) ?? null);
    return last.content;
  }
  const calls = last.content.filter((block) => block.type === "tool_call");
  for (const message of ui.messages) {
    const payload = message.type === "say" ? message.payload : undefined;
    if (payload?.say !== "tool" || (payload.status !== "running" && payload.status !== "pending")) continue;
    ui.update(message, { ...payload, status: "error", output: prompts.interruptedCall(payload.tool) });
  }
  return calls.map((call) => ({
    type: "tool_result" as const,
    callId: call.id,
    content: [{ type: "text" as const, text: prompts.interruptedCall(call.name) }],
    isError: true,
  }));
}

/**
 * Puts the conversation back to the point a checkpoint mark (a `checkpoint` UI message) was
 * taken: after the results of the step it follows. Later entries stay in the journal. Throws
 * when the checkpoint is unknown or was compacted away.
 */
export function rewindToCheckpoint(store: MessageStore, ui: UiMessageLog, checkpointId: string): void {
  store.rewindTo(checkpointEntry(ui.messages, store.entryIds, checkpointId));
  ui.say({
    say: "notice",
    text: `The conversation was restored to checkpoint ${checkpointId.slice(0, 12)}.`,
  });
}

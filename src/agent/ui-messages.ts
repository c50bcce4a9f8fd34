import type { Ask, Event, Say, UiMessage } from "../protocol/index.js";
import type { SessionJournal } from "./journal.js";

/**
 * The UI side of the task's messages: creates, updates and journals them, and emits the
 * matching events. Streaming updates are emitted to hosts but journaled only once final.
 */
export interface UiMessageLog {
  say(payload: Say, partial?: boolean): UiMessage;
  update(message: UiMessage, payload: Say, partial?: boolean): UiMessage;
  ask(payload: Ask): UiMessage;
  /** Marks a message as belonging to a failed, retried reply (hosts hide it). */
  discard(id: string): void;
  readonly messages: readonly UiMessage[];
}

export function createUiMessageLog(
  emit: (event: Event) => void,
  journal?: SessionJournal,
  /** The messages of a resumed task, continued (their ids are not reused). */
  initial: readonly UiMessage[] = [],
): UiMessageLog {
  const messages: UiMessage[] = [...initial];
  const indexById = new Map(messages.map((message, index) => [message.id, index]));
  let counter = Math.max(0, ...messages.map((message) => Number.parseInt(message.id.slice(1), 36) || 0));
  const nextId = () => `m${(++counter).toString(36)}`;

  const record = (message: UiMessage, op: "add" | "update") => {
    const index = indexById.get(message.id);
    if (index === undefined) {
      indexById.set(message.id, messages.length);
      messages.push(message);
    } else {
      messages[index] = message;
    }
    if (!message.partial) journal?.appendUi(op, message);
  };

  return {
    messages,
    say(payload, partial) {
      const message: UiMessage = { id: nextId(), ts: Date.now(), type: "say", payload, partial };
      record(message, "add");
      emit({ type: "ui_message_added", message });
      return message;
    },
    update(previous, payload, partial) {
      const message: UiMessage = { ...previous, type: "say", payload, partial } as UiMessage;
      // A message journaled for the first time when it becomes final is an "add".
      record(message, previous.partial ? "add" : "update");
      emit({ type: "ui_message_updated", message });
      return message;
    },
    discard(id) {
      const index = indexById.get(id);
      if (index === undefined) return;
      const message = { ...messages[index]!, partial: undefined, discarded: true } as UiMessage;
      record(message, "update");
      emit({ type: "ui_message_updated", message });
    },
    ask(payload) {
      const message: UiMessage = { id: nextId(), ts: Date.now(), type: "ask", payload };
      record(message, "add");
      emit({ type: "ask", message });
      return message;
    },
  };
}

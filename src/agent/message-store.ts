/**
 * The one owner of a task's two stores: the API history (what the model is sent) and the UI
 * messages (what the person sees). Every change goes through here and is appended to the
 * journal as it happens; streaming UI updates are journaled once, when final.
 */
import type { LlmMessage } from "../llm/types.js";
import type { Event, UiMessage } from "../protocol/index.js";
import type { SessionJournal } from "./journal.js";
import { createUiMessageLog, type UiMessageLog } from "./ui-messages.js";

/** Where a resumed task's stores continue from (see the session loader). */
export interface StoredSession {
  /** The active history with the entry id of each message. */
  entries: ReadonlyArray<{ id: string; message: LlmMessage }>;
  /** The number for the next entry id of this task (`e<n>`). */
  nextEntryNumber: number;
  /**
   * The parent of the next entry (default: the last entry). A fork's first own entry has none:
   * its fork record says where it starts.
   */
  nextParent?: string | null;
  ui: readonly UiMessage[];
}

export interface MessageStore {
  /** The active API history; replaced as a whole by compaction, never edited in place. */
  readonly history: readonly LlmMessage[];
  readonly ui: UiMessageLog;
  /** The entry id of each message of `history`, in order. */
  readonly entryIds: readonly string[];
  append(message: LlmMessage): string;
  /**
   * Replaces the active history (compaction, truncation): the new messages are new entries, the
   * first marked as the start of the active history. The old entries stay in the journal.
   */
  replace(messages: readonly LlmMessage[]): void;
  /** Continues the history from an earlier entry (a rewind); later entries stay in the journal. */
  rewindTo(entryId: string | null): void;
}

export function createMessageStore(options: {
  emit(event: Event): void;
  journal?: SessionJournal;
  resume?: StoredSession;
}): MessageStore {
  const history: LlmMessage[] = options.resume?.entries.map((e) => e.message) ?? [];
  const entryIds: string[] = options.resume?.entries.map((e) => e.id) ?? [];
  let nextNumber = options.resume?.nextEntryNumber ?? 1;
  let parent: string | null = options.resume?.nextParent ?? entryIds.at(-1) ?? null;
  const ui = createUiMessageLog(options.emit, options.journal, options.resume?.ui);

  const write = (message: LlmMessage, compaction: boolean): string => {
    const id = `e${nextNumber++}`;
    options.journal?.appendApi({
      v: 2,
      type: "message",
      id,
      parent,
      ts: Date.now(),
      message,
      ...(compaction ? { compaction: true as const } : {}),
      uiCount: ui.messages.length,
    });
    history.push(message);
    entryIds.push(id);
    parent = id;
    return id;
  };

  return {
    history,
    entryIds,
    ui,
    append: (message) => write(message, false),
    replace(messages) {
      const [first, ...rest] = messages;
      history.length = 0;
      // The new chain still points at the old last entry, so the journal shows what it replaced.
      if (first) write(first, true);
      entryIds.splice(0, entryIds.length - (first ? 1 : 0));
      for (const message of rest) write(message, false);
    },
    rewindTo(entryId) {
      const index = entryId === null ? 0 : entryIds.indexOf(entryId) + 1;
      if (entryId !== null && index === 0) throw new Error(`No entry ${entryId} in the active history.`);
      options.journal?.appendApi({ v: 2, type: "rewind", ts: Date.now(), to: entryId });
      history.length = index;
      entryIds.length = index;
      parent = entryId;
    },
  };
}

/**
 * The entry a rewind to a checkpoint continues from: the checkpoint mark (a `checkpoint` UI
 * message) follows the reply whose calls changed files, so the entry after it (their results)
 * is kept; a mark with no entry (the baseline) goes back to the first message. Throws when the
 * mark is unknown or its entry is no longer in the active history (compacted since).
 */
export function checkpointEntry(
  ui: readonly UiMessage[],
  entryIds: readonly string[],
  checkpointId: string,
): string | null {
  const mark = ui.find(
    (m) =>
      m.type === "say" && m.payload.say === "checkpoint" && m.payload.checkpointId.startsWith(checkpointId),
  );
  if (mark?.type !== "say" || mark.payload.say !== "checkpoint") {
    throw new Error(`The task has no checkpoint ${checkpointId}.`);
  }
  const at = mark.payload.entryId === undefined ? 0 : entryIds.indexOf(mark.payload.entryId) + 1;
  if (mark.payload.entryId !== undefined && at === 0) {
    throw new Error(
      `The conversation was compacted after checkpoint ${checkpointId}; restore the files only.`,
    );
  }
  return entryIds[Math.min(at, entryIds.length - 1)] ?? null;
}

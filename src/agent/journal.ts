import type { LlmMessage } from "../llm/types.js";
import type { UiMessage } from "../protocol/index.js";

/** Version of the journal record format; loaders migrate older versions. */
export const JOURNAL_VERSION = 1;

/** `compaction`: the history was replaced from here on (the records before it are superseded). */
export type ApiJournalRecord = { v: 1; ts: number; message: LlmMessage; compaction?: true };
export type UiJournalRecord = { v: 1; ts: number; op: "add" | "update"; message: UiMessage };

/**
 * Where a task's two stores are appended as they change. Implementations write
 * append-only records; `sync` makes what was appended durable (called at turn boundaries).
 * Contract: append methods do not throw for I/O errors after open; they report them through
 * `sync`'s rejection so a full disk stops the task instead of silently dropping records.
 */
export interface SessionJournal {
  appendApi(message: LlmMessage, meta?: { compaction?: true }): void;
  appendUi(op: "add" | "update", message: UiMessage): void;
  sync(): Promise<void>;
  close(): Promise<void>;
}

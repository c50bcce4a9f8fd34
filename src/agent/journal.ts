import type { LlmMessage } from "../llm/types.js";
import type { UiMessage } from "../protocol/index.js";

/**
 * Version of the journal record format; loaders migrate older versions.
 * - v1: `{v:1, ts, message, compaction?}` API records, one after the other.
 * - v2: API records are entries of a tree: each has an `id` and the `parent` it follows, so a
 *   fork or a rewind adds entries instead of copying or rewriting any.
 */
export const JOURNAL_VERSION = 2;

/**
 * One message of the API history.
 * - `id`: unique within the task (`e1`, `e2`, ...); `parent`: the entry this one follows (null
 *   for the first entry of a task, or of a fork: then the `fork` record says where it starts).
 * - `compaction`: the active history starts here (a summary or a shortened history replaced
 *   what came before; the older entries stay in the file).
 * - `uiCount`: how many UI messages existed when the entry was written, so a rewind or a fork
 *   can cut the UI history at the same point.
 */
export type ApiMessageRecord = {
  v: 2;
  type: "message";
  id: string;
  parent: string | null;
  ts: number;
  message: LlmMessage;
  compaction?: true;
  uiCount: number;
};

/** The first record of a forked task: its history begins with `fromTask`'s up to `fromEntry`. */
export type ApiForkRecord = { v: 2; type: "fork"; ts: number; fromTask: string; fromEntry: string };

/** A rewind: the active history continues from `to` (an earlier entry, or null for empty). */
export type ApiRewindRecord = { v: 2; type: "rewind"; ts: number; to: string | null };

export type ApiJournalRecord = ApiMessageRecord | ApiForkRecord | ApiRewindRecord | ApiModelRecord;

/**
 * The act-mode model was switched (`Task.setModel`): the requests after it go to `model` at
 * `provider` (as in `ModelConfig`). The last one in the file is the model a resumed task was
 * using; before any, it is the one the task was created with.
 */
export type ApiModelRecord = { v: 2; type: "model"; ts: number; provider: string; model: string };

/** The v1 record, still read (and migrated) by loaders. */
export type ApiJournalRecordV1 = { v: 1; ts: number; message: LlmMessage; compaction?: true };

export type UiJournalRecord = { v: 1 | 2; ts: number; op: "add" | "update"; message: UiMessage };

/**
 * Where a task's two stores are appended as they change. Implementations write
 * append-only records; `sync` makes what was appended durable (called at turn boundaries).
 * Contract: append methods do not throw for I/O errors after open; they report them through
 * `sync`'s rejection so a full disk stops the task instead of silently dropping records.
 */
export interface SessionJournal {
  appendApi(record: ApiJournalRecord): void;
  appendUi(op: "add" | "update", message: UiMessage): void;
  sync(): Promise<void>;
  close(): Promise<void>;
}

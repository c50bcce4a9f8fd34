import type { ApiJournalRecord, ApiMessageRecord, UiJournalRecord } from "../../agent/journal.js";
import { JOURNAL_VERSION } from "../../agent/journal.js";
import type { JsonlContent } from "./journal-reader.js";
import { corruptLine } from "./journal-reader.js";
import { SessionLoadError } from "./session-error.js";

type RawRecords = JsonlContent["records"];
type Fields = Record<string, unknown>;

/** The number `n` of an entry id `e<n>`, or 0 for an id of another shape. */
export function entryNumber(id: string): number {
  return /^e\d+$/.test(id) ? Number(id.slice(1)) : 0;
}

/**
 * The API records of one file as v2 records. A v1 record (no id) becomes a message entry with
 * the next free id `e<n>`, following the message entry before it; its `uiCount` is filled in by
 * the caller (`-1` until then). Throws `SessionLoadError` for a record of an unknown shape or
 * a newer version.
 */
export function toApiRecords(path: string, raw: RawRecords): ApiJournalRecord[] {
  const records: ApiJournalRecord[] = [];
  let highest = 0;
  let previous: string | null = null;
  for (const { line, value } of raw) {
    const fields = checkVersion(path, line, value);
    const record: ApiJournalRecord =
      fields.v === 1 ? migrateV1(path, line, fields, highest + 1, previous) : checkV2(path, line, fields);
    if (record.type === "message") {
      highest = Math.max(highest, entryNumber(record.id));
      previous = record.id;
    }
    records.push(record);
  }
  return records;
}

/** The UI records of one file (v1 and v2 share the same shape). */
export function toUiRecords(path: string, raw: RawRecords): UiJournalRecord[] {
  return raw.map(({ line, value }) => {
    const fields = checkVersion(path, line, value);
    const message = fields.message as Fields | undefined;
    if ((fields.op !== "add" && fields.op !== "update") || typeof message?.id !== "string") {
      throw corruptLine(path, line, "a UI record needs op add|update and a message with an id");
    }
    return fields as UiJournalRecord;
  });
}

function checkVersion(path: string, line: number, value: unknown): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw corruptLine(path, line, "not an object");
  }
  const fields = value as Fields;
  if (typeof fields.v === "number" && fields.v > JOURNAL_VERSION) {
    throw new SessionLoadError(
      "unsupported_version",
      `${path} line ${line} was written by a newer Bowline (record version ${fields.v}); update Bowline to open this task.`,
    );
  }
  if (fields.v !== 1 && fields.v !== 2)
    throw corruptLine(path, line, `unknown record version ${String(fields.v)}`);
  if (typeof fields.ts !== "number") throw corruptLine(path, line, "no ts");
  return fields;
}

function migrateV1(
  path: string,
  line: number,
  fields: Fields,
  number: number,
  parent: string | null,
): ApiMessageRecord {
  checkMessage(path, line, fields.message);
  const record: ApiMessageRecord = {
    v: 2,
    type: "message",
    id: `e${number}`,
    parent,
    ts: fields.ts as number,
    message: fields.message as ApiMessageRecord["message"],
    uiCount: -1,
  };
  if (fields.compaction === true) record.compaction = true;
  return record;
}

function checkV2(path: string, line: number, fields: Fields): ApiJournalRecord {
  switch (fields.type) {
    case "message":
      checkMessage(path, line, fields.message);
      if (typeof fields.id !== "string" || (fields.parent !== null && typeof fields.parent !== "string")) {
        throw corruptLine(path, line, "a message entry needs an id and a parent (or null)");
      }
      if (typeof fields.uiCount !== "number") return { ...(fields as ApiMessageRecord), uiCount: -1 };
      return fields as ApiMessageRecord;
    case "fork":
      if (typeof fields.fromTask !== "string" || typeof fields.fromEntry !== "string") {
        throw corruptLine(path, line, "a fork record needs fromTask and fromEntry");
      }
      return fields as ApiJournalRecord;
    case "rewind":
      if (fields.to !== null && typeof fields.to !== "string") {
        throw corruptLine(path, line, "a rewind record needs to (an entry id or null)");
      }
      return fields as ApiJournalRecord;
    case "model":
      if (typeof fields.provider !== "string" || typeof fields.model !== "string") {
        throw corruptLine(path, line, "a model record needs a provider and a model");
      }
      return fields as ApiJournalRecord;
    default:
      throw corruptLine(path, line, `unknown record type ${String(fields.type)}`);
  }
}

function checkMessage(path: string, line: number, message: unknown): void {
  const fields = message as Fields | undefined;
  if ((fields?.role !== "user" && fields?.role !== "assistant") || !Array.isArray(fields.content)) {
    throw corruptLine(path, line, "the message needs a role (user|assistant) and a content array");
  }
}

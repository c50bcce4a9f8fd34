import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { SessionLoadError } from "./session-error.js";

export interface JsonlContent {
  /** Each parsed record with its 1-based line number (for error messages). */
  records: Array<{ line: number; value: unknown }>;
  /** Set when the last line was torn by a crash and dropped. */
  tornLine?: number;
}

/**
 * Reads an append-only JSONL file in one pass. A missing file is empty. A record is complete with
 * its newline (the writer appends record and newline in one write): text after the last newline
 * is a torn line, dropped and reported (the writer cuts it off before appending again). A line
 * before it that is not JSON throws `SessionLoadError` (`corrupt_journal`) naming file and line.
 * Lines are decoded one by one from the bytes: several times faster than decoding a large file
 * into one string and splitting that.
 */
export function readJsonl(path: string): JsonlContent {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { records: [] };
    throw error;
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  const records: JsonlContent["records"] = [];
  let line = 0;
  for (let start = 0; start < end; ) {
    const newline = bytes.indexOf(0x0a, start);
    line++;
    const text = bytes.toString("utf8", start, newline);
    start = newline + 1;
    if (text.trim() === "") continue;
    try {
      records.push({ line, value: JSON.parse(text) });
    } catch {
      // The parser's message quotes the line, which may hold anything a tool read: not repeated.
      throw corruptLine(path, line, "not JSON");
    }
  }
  const torn = bytes.subarray(end).some((byte) => !isBlank(byte));
  return torn ? { records, tornLine: line + 1 } : { records };
}

export function corruptLine(path: string, line: number, reason: string): SessionLoadError {
  return new SessionLoadError(
    "corrupt_journal",
    `${path} line ${line} is not a valid journal record: ${reason}`,
  );
}

const isBlank = (byte: number) => byte === 0x0a || byte === 0x0d || byte === 0x20 || byte === 0x09;

const CHUNK = 64 * 1024;

/** The first record of a file when it is small (a fork record), else undefined. */
export function readFirstRecord(path: string): unknown {
  return withFile(path, (fd, size) => {
    const bytes = Buffer.alloc(Math.min(size, CHUNK));
    readSync(fd, bytes, 0, bytes.length, 0);
    const end = bytes.indexOf(0x0a);
    if (end < 0) return undefined;
    try {
      return JSON.parse(bytes.subarray(0, end).toString("utf8"));
    } catch {
      return undefined; // a damaged first line is reported by the full load, not by this peek
    }
  });
}

/**
 * The `ts` of a file's last complete record, read backwards from the end (a torn last line is
 * skipped): what a listing needs without parsing a whole journal.
 */
export function lastRecordTs(path: string): number | undefined {
  return withFile(path, (fd, size) => {
    for (let chunk = CHUNK; ; chunk *= 4) {
      const start = Math.max(0, size - chunk);
      const bytes = Buffer.alloc(size - start);
      readSync(fd, bytes, 0, bytes.length, start);
      const lines = bytes.toString("utf8").split("\n");
      lines.pop(); // after the last newline: nothing, or a torn line
      if (start > 0) lines.shift(); // begins mid-line
      const last = lines.findLast((line) => line.trim() !== "");
      if (last === undefined && start > 0) continue;
      try {
        const ts = last === undefined ? undefined : (JSON.parse(last) as { ts?: unknown }).ts;
        return typeof ts === "number" ? ts : undefined;
      } catch {
        return undefined; // a damaged line is reported by the full load, not by this peek
      }
    }
  });
}

function withFile<T>(path: string, read: (fd: number, size: number) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return read(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

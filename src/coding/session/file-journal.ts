import {
  closeSync,
  fdatasync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { JOURNAL_VERSION, type SessionJournal } from "../../agent/journal.js";

export const API_HISTORY_FILE = "api_history.jsonl";
export const UI_MESSAGES_FILE = "ui_messages.jsonl";

/**
 * Opens a journal file for appending. A torn last line (the process died mid-write) is cut off
 * first, so the next record starts on a line of its own; loaders drop a torn last line anyway.
 */
function openForAppend(file: string): number {
  const fd = openSync(file, "a+", 0o600);
  const size = fstatSync(fd).size;
  if (size === 0) return fd;
  const tailSize = Math.min(size, 64 * 1024);
  const tail = Buffer.alloc(tailSize);
  readSync(fd, tail, 0, tailSize, size - tailSize);
  if (tail[tailSize - 1] === 0x0a) return fd;
  const lastNewline = tail.lastIndexOf(0x0a);
  // A torn line longer than the window: scan back further.
  let keep = lastNewline >= 0 ? size - tailSize + lastNewline + 1 : -1;
  for (let end = size - tailSize; keep < 0 && end > 0; ) {
    const start = Math.max(0, end - 64 * 1024);
    const chunk = Buffer.alloc(end - start);
    readSync(fd, chunk, 0, chunk.length, start);
    const at = chunk.lastIndexOf(0x0a);
    if (at >= 0) keep = start + at + 1;
    end = start;
  }
  ftruncateSync(fd, Math.max(0, keep));
  return fd;
}

/**
 * The task's journal as two append-only JSONL files. Each record is one line written with a
 * single write(2) on an O_APPEND descriptor, so a crash can at worst leave a torn last line.
 * Durability: `sync` (called at each turn boundary) fdatasyncs both files.
 */
export function createFileJournal(taskDir: string): SessionJournal & { bytesWritten(): number } {
  mkdirSync(taskDir, { recursive: true, mode: 0o700 });
  const apiFd = openForAppend(join(taskDir, API_HISTORY_FILE));
  const uiFd = openForAppend(join(taskDir, UI_MESSAGES_FILE));
  let written = 0;
  let failure: Error | undefined;
  let closed = false;

  const append = (fd: number, record: unknown) => {
    if (closed || failure) return;
    try {
      written += writeSync(fd, `${JSON.stringify(record)}\n`);
    } catch (error) {
      failure = error as Error;
    }
  };
  const syncFd = (fd: number) =>
    new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));

  return {
    appendApi(record) {
      append(apiFd, record);
    },
    appendUi(op, message) {
      append(uiFd, { v: JOURNAL_VERSION, ts: Date.now(), op, message });
    },
    async sync() {
      if (failure) throw new Error(`Could not write the session journal in ${taskDir}: ${failure.message}`);
      if (closed) return;
      await Promise.all([syncFd(apiFd), syncFd(uiFd)]);
    },
    async close() {
      if (closed) return;
      try {
        await this.sync();
      } finally {
        closed = true;
        closeSync(apiFd);
        closeSync(uiFd);
      }
    },
    bytesWritten: () => written,
  };
}

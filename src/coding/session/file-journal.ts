import { closeSync, fdatasync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { JOURNAL_VERSION, type SessionJournal } from "../../agent/journal.js";

export const API_HISTORY_FILE = "api_history.jsonl";
export const UI_MESSAGES_FILE = "ui_messages.jsonl";

/**
 * The task's journal as two append-only JSONL files. Each record is one line written with a
 * single write(2) on an O_APPEND descriptor, so a crash can at worst leave a torn last line.
 * Durability: `sync` (called at each turn boundary) fdatasyncs both files.
 */
export function createFileJournal(taskDir: string): SessionJournal & { bytesWritten(): number } {
  mkdirSync(taskDir, { recursive: true, mode: 0o700 });
  const apiFd = openSync(join(taskDir, API_HISTORY_FILE), "a", 0o600);
  const uiFd = openSync(join(taskDir, UI_MESSAGES_FILE), "a", 0o600);
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

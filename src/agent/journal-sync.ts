import type { SessionJournal } from "./journal.js";

/**
 * Journal records are written as they happen (so a killed process loses nothing it finished);
 * fdatasync runs in the background at each turn boundary so the disk flush never delays the
 * next request. A write failure is kept: the task stops at the next boundary.
 */
export function createJournalSync(journal: SessionJournal | undefined) {
  let failure: Error | undefined;
  let syncing: Promise<void> = Promise.resolve();
  return {
    /** The first write or flush failure, if any. */
    get failure(): Error | undefined {
      return failure;
    },
    /** Starts a flush after those already started. */
    sync(): void {
      if (!journal) return;
      syncing = syncing
        .then(() => journal.sync())
        .catch((error: unknown) => {
          failure ??= error instanceof Error ? error : new Error(String(error));
        });
    },
    /** Flushes, and waits for every flush started so far. */
    async settle(): Promise<void> {
      this.sync();
      await syncing;
    },
  };
}

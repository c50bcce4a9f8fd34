/**
 * Restoring a task's conversation to a checkpoint: the history continues from the point the
 * checkpoint was taken (a rewind record; nothing is deleted), with a notice in the UI history.
 */
import { createMessageStore } from "../../agent/message-store.js";
import type { TaskRewinder } from "../checkpoints/index.js";
import { createFileJournal } from "./file-journal.js";
import { loadSession } from "./load-session.js";

export function createTaskRewinder(home: string): TaskRewinder {
  return {
    async rewind(taskId, checkpointId) {
      const loaded = loadSession(home, taskId);
      const mark = loaded.ui.find(
        (m) =>
          m.type === "say" &&
          m.payload.say === "checkpoint" &&
          m.payload.checkpointId.startsWith(checkpointId),
      );
      if (!mark || mark.type !== "say" || mark.payload.say !== "checkpoint") {
        throw new Error(`Task ${taskId} has no record of checkpoint ${checkpointId}.`);
      }
      const ids = loaded.entries.map((entry) => entry.id);
      // A step's checkpoint follows the reply that made the calls: keep their results too.
      const at = mark.payload.entryId === undefined ? 0 : ids.indexOf(mark.payload.entryId) + 1;
      if (mark.payload.entryId !== undefined && at === 0) {
        throw new Error(
          `The conversation of task ${taskId} was compacted after checkpoint ${checkpointId}; restore the files only.`,
        );
      }
      const target = ids[Math.min(at, ids.length - 1)] ?? null;
      const journal = createFileJournal(loaded.taskDir);
      try {
        const store = createMessageStore({ emit: () => {}, journal, resume: loaded });
        store.rewindTo(target);
        store.ui.say({
          say: "notice",
          text: `The conversation was restored to checkpoint ${checkpointId.slice(0, 12)}.`,
        });
      } finally {
        await journal.close();
      }
    },
  };
}

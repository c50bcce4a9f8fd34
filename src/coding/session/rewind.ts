/**
 * Restoring a task's conversation to a checkpoint: the history continues from the point the
 * checkpoint was taken (a rewind record; nothing is deleted), with a notice in the UI history.
 */
import { checkpointEntry, createMessageStore } from "../../agent/message-store.js";
import type { TaskRewinder } from "../checkpoints/index.js";
import { createFileJournal } from "./file-journal.js";
import { loadSession } from "./load-session.js";

export function createTaskRewinder(home: string): TaskRewinder {
  return {
    async rewind(taskId, checkpointId) {
      const loaded = loadSession(home, taskId);
      const target = checkpointEntry(
        loaded.ui,
        loaded.entries.map((entry) => entry.id),
        checkpointId,
      );
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

/**
 * Checkpoints for one task session: the baseline when the task starts (mutating tools wait for
 * it), a checkpoint after every step that may have changed files (edits and commands alike), each
 * announced as a `checkpoint` UI message carrying the conversation entry it follows, so a restore
 * can rewind the task to the same point. A git failure turns checkpoints off for the task with a
 * notice; it never stops the task.
 */
import type { Say } from "../protocol/index.js";
import {
  isUnavailable,
  openCheckpoints,
  type SaveOutcome,
  type TaskCheckpoints,
} from "./checkpoints/index.js";

export interface SessionCheckpoints {
  /** Starts the baseline (not awaited: read-only tools may run meanwhile). */
  start(): void;
  beforeMutation(): Promise<void>;
  afterStep(step: { mutated: boolean; entryId: string | undefined; turn: number }): Promise<void>;
  close(): Promise<void>;
}

export async function openSessionCheckpoints(options: {
  home: string;
  workspace: string;
  taskId: string;
  say(payload: Say): void;
  enabled: boolean;
}): Promise<SessionCheckpoints> {
  let handle: TaskCheckpoints | undefined;
  if (options.enabled) {
    try {
      const opened = await openCheckpoints({
        home: options.home,
        workspace: options.workspace,
        taskId: options.taskId,
      });
      if (isUnavailable(opened))
        options.say({ say: "notice", text: `Checkpoints are off: ${opened.message}` });
      else handle = opened;
    } catch (error) {
      options.say({ say: "notice", text: `Checkpoints are off: ${(error as Error).message}` });
    }
  }
  let baseline: Promise<void> = Promise.resolve();

  const announce = (outcome: SaveOutcome | { unavailable: true; message: string }, entryId?: string) => {
    if ("unavailable" in outcome) {
      options.say({ say: "notice", text: `Checkpoints are off: ${outcome.message}` });
      handle = undefined;
      return;
    }
    if (!outcome.created) return;
    const { checkpoint } = outcome;
    options.say({
      say: "checkpoint",
      checkpointId: checkpoint.id,
      label: checkpoint.label,
      files: checkpoint.files.length + (checkpoint.moreFiles ?? 0),
      ...(entryId ? { entryId } : {}),
    });
    if (outcome.skipped.length > 0) {
      options.say({
        say: "notice",
        text: `Not checkpointed (over the size limit): ${outcome.skipped.join(", ")}`,
      });
    }
  };
  const fail = (error: unknown) => {
    options.say({ say: "notice", text: `Checkpoints are off for this task: ${(error as Error).message}` });
    handle = undefined;
  };

  return {
    start() {
      if (!handle) return;
      baseline = handle.baseline("task start").then((outcome) => announce(outcome as SaveOutcome), fail);
    },
    beforeMutation: () => baseline,
    async afterStep(step) {
      if (!handle || !step.mutated) return;
      await baseline;
      if (!handle) return;
      try {
        announce((await handle.afterStep(`step ${step.turn}`)) as SaveOutcome, step.entryId);
      } catch (error) {
        fail(error);
      }
    },
    async close() {
      await baseline;
      await handle?.settled().catch(() => undefined);
    },
  };
}

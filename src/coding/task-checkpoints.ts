/**
 * Checkpoints for one task session: the baseline when the task starts (mutating tools wait for
 * it), a checkpoint after every step that may have changed files (edits and commands alike), each
 * announced as a `checkpoint` UI message carrying the conversation entry it follows, so a restore
 * can rewind the task to the same point. A git failure turns checkpoints off for the task with a
 * notice; it never stops the task.
 */
import type { CheckpointCommand, Event, Say } from "../protocol/index.js";
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
  /**
   * Answers a host's checkpoint command with its event. `rewindTask` puts the conversation back
   * to a checkpoint (restore modes `task` and `both`).
   */
  command(
    command: CheckpointCommand,
    emit: (event: Event) => void,
    rewindTask: (checkpointId: string) => void,
  ): Promise<void>;
  close(): Promise<void>;
}

/**
 * The checkpoints of a task session. The store is opened (its git processes spawned) only when
 * the baseline starts, once the session's first model request is on its way, or when a host
 * asks about checkpoints: nothing needs it before.
 */
export function openSessionCheckpoints(options: {
  home: string;
  workspace: string;
  taskId: string;
  say(payload: Say): void;
  enabled: boolean;
}): SessionCheckpoints {
  let handle: TaskCheckpoints | undefined;
  let opening: Promise<void> | undefined;
  /** Opens the store once; when it cannot be, says why and checkpoints stay off. */
  const open = (): Promise<void> =>
    (opening ??= !options.enabled
      ? Promise.resolve()
      : openCheckpoints({ home: options.home, workspace: options.workspace, taskId: options.taskId }).then(
          (opened) => {
            if (isUnavailable(opened))
              options.say({ say: "notice", text: `Checkpoints are off: ${opened.message}` });
            else handle = opened;
          },
          (error: unknown) =>
            options.say({ say: "notice", text: `Checkpoints are off: ${(error as Error).message}` }),
        ));
  let baseline: Promise<void> = Promise.resolve();
  /** Checkpoints are off for the rest of the task: the workspace is no longer watched either. */
  const stop = () => {
    handle?.close();
    handle = undefined;
  };

  const announce = (outcome: SaveOutcome | { unavailable: true; message: string }, entryId?: string) => {
    if ("unavailable" in outcome) {
      options.say({ say: "notice", text: `Checkpoints are off: ${outcome.message}` });
      stop();
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
    stop();
  };

  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    baseline = open().then(() =>
      handle?.baseline("task start").then((outcome) => announce(outcome as SaveOutcome), fail),
    );
  };

  return {
    start,
    // No tool changes a file before the baseline: it is taken now if it was not started yet.
    beforeMutation: () => {
      start();
      return baseline;
    },
    async afterStep(step) {
      if (!step.mutated) return;
      await baseline;
      if (!handle) return;
      try {
        announce((await handle.afterStep(`step ${step.turn}`)) as SaveOutcome, step.entryId);
      } catch (error) {
        fail(error);
      }
    },
    async command(command, emit, rewindTask) {
      await open();
      if (!handle) {
        emit({
          type: "checkpoints_unavailable",
          reason: "no_store",
          message: "Checkpoints are off for this task.",
        });
        return;
      }
      try {
        if (command.type === "list_checkpoints") {
          const checkpoints = await handle.list(command.taskId ? { taskId: command.taskId } : undefined);
          emit({ type: "checkpoints_listed", checkpoints, storeBytes: await handle.size() });
        } else if (command.type === "diff_checkpoints") {
          const diff = await handle.diff(command.from, command.to);
          if (isUnavailable(diff))
            emit({ type: "checkpoints_unavailable", reason: diff.reason, message: diff.message });
          else emit({ type: "checkpoint_diff", diff });
        } else {
          let changed: Array<{ path: string; status: "added" | "modified" | "deleted" }> = [];
          let undoId: string | undefined;
          if (command.mode !== "task") {
            const outcome = await handle.restore(command.checkpointId, { force: command.force });
            if (isUnavailable(outcome)) {
              emit({ type: "checkpoints_unavailable", reason: outcome.reason, message: outcome.message });
              return;
            }
            if (outcome.status === "conflicts") {
              emit({
                type: "checkpoint_restore_conflicts",
                checkpointId: command.checkpointId,
                mode: command.mode,
                files: outcome.files,
              });
              return;
            }
            changed = outcome.changed;
            undoId = outcome.undoId;
          }
          if (command.mode !== "files") rewindTask(command.checkpointId);
          emit({
            type: "checkpoint_restored",
            checkpointId: command.checkpointId,
            mode: command.mode,
            changed,
            ...(undoId ? { undoId } : {}),
          });
        }
      } catch (error) {
        emit({ type: "checkpoint_error", message: (error as Error).message });
      }
    },
    async close() {
      await baseline;
      await opening;
      await handle?.settled().catch(() => undefined);
      handle?.close();
    },
  };
}

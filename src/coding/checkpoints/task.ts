import { type CheckpointStore, openCheckpointStore, type SaveOutcome } from "./store.js";
import { type CheckpointStoreOptions, type CheckpointsUnavailable, isUnavailable } from "./types.js";

/**
 * The checkpoints of one task, as the task loop uses them:
 *
 * ```ts
 * const checkpoints = await openCheckpoints({ home, workspace, taskId });
 * if (isUnavailable(checkpoints)) notice(checkpoints.message);
 * else {
 *   const started = checkpoints.baseline();      // not awaited: read-only tools may run
 *   await checkpoints.ready();                    // before the first mutating tool
 *   await checkpoints.afterStep("write_to_file src/a.ts"); // after each step that may have changed files
 *   await checkpoints.settled();                  // at the end of the task
 *   checkpoints.close();                          // stops watching the workspace
 * }
 * ```
 *
 * The workspace is watched (see `ChangeTracker`), so a step's checkpoint looks only at the paths
 * that changed. Operations queue behind each other (and behind other tasks' in the same
 * workspace), so a step's checkpoint never starts before the baseline is recorded. Every git call is a child
 * process: nothing blocks the event loop. Git failures reject with `CheckpointGitError`; a task
 * should report them and go on without checkpoints rather than stop.
 */
export interface TaskCheckpoints extends CheckpointStore {
  readonly taskId: string;
  /**
   * The checkpoint at the start (or resumption) of the task, so its first change can be undone.
   * On a big workspace the first one hashes every file, in child processes: read-only tools can
   * go on meanwhile, mutating tools should wait for `ready()`. When it is done, old checkpoints
   * are pruned and the store repacked (daily) in the background.
   *
   * This and `afterStep` answer `CheckpointsUnavailable` (reason `limits_exceeded`) when the
   * workspace is over its limits: checkpoints then stay off for it, the message says why.
   */
  baseline(label?: string): Promise<SaveOutcome | CheckpointsUnavailable>;
  /**
   * The checkpoint after a step that may have changed files, by a tool or a command (the whole
   * workspace is compared, so changes made by shell commands are caught). When nothing changed,
   * the task's last checkpoint is returned with `created: false`.
   */
  afterStep(label: string): Promise<SaveOutcome | CheckpointsUnavailable>;
  /** Resolves when the checkpoints asked for so far are recorded (or failed: their promises say so). */
  ready(): Promise<void>;
  /**
   * Resolves when everything this handle started is finished, background housekeeping included;
   * rejects with the first background failure, if any.
   */
  settled(): Promise<void>;
}

export async function openCheckpoints(
  options: CheckpointStoreOptions & { taskId: string },
): Promise<TaskCheckpoints | CheckpointsUnavailable> {
  const store = await openCheckpointStore({ watch: true, ...options });
  if (isUnavailable(store)) return store;
  const saves = new Set<Promise<unknown>>();
  const background = new Set<Promise<unknown>>();
  const failures: unknown[] = [];
  /** Adds `promise` to `set` until it settles; the caller still sees its outcome. */
  const track = <T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> => {
    const done: Promise<unknown> = promise.then(
      () => set.delete(done),
      () => set.delete(done),
    );
    set.add(done);
    return promise;
  };
  const drain = async (set: Set<Promise<unknown>>) => {
    while (set.size > 0) await Promise.all(set);
  };

  return {
    ...store,
    taskId: options.taskId,
    baseline: (label = "start of task") => {
      const saved = track(saves, store.save(options.taskId, "baseline", label));
      const housekeeping = saved.then(
        (outcome) => (isUnavailable(outcome) ? undefined : store.housekeeping()),
        () => undefined, // the caller hears of a failed baseline from its promise
      );
      track(background, housekeeping).catch((error: unknown) => failures.push(error));
      return saved;
    },
    afterStep: (label) => track(saves, store.save(options.taskId, "step", label)),
    ready: () => drain(saves),
    settled: async () => {
      await drain(saves);
      await drain(background);
      if (failures.length > 0) throw failures[0];
    },
  };
}

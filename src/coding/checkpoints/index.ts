/**
 * Checkpoints: a shadow git repository per workspace (under `<home>/checkpoints/<hash>/`)
 * recording the workspace at the start of a task and after each step that changed files, never
 * touching the person's own repository. See `openCheckpoints` for the task loop's use and
 * `openCheckpointStore` for listing, diffing and restoring from anywhere.
 */
export type { DiffOptions } from "./diff.js";
export { BUILT_IN_EXCLUDES } from "./exclusions.js";
export type { RestoreOutcome } from "./restore.js";
export { formatBytes } from "./snapshot.js";
export { type CheckpointStore, openCheckpointStore, type SaveOutcome } from "./store.js";
export { openCheckpoints, type TaskCheckpoints } from "./task.js";
export {
  CheckpointGitError,
  type CheckpointLimits,
  CheckpointNotFoundError,
  type CheckpointStoreOptions,
  type CheckpointsUnavailable,
  DEFAULT_LIMITS,
  isUnavailable,
  type PruneOptions,
  type TaskRewinder,
} from "./types.js";
export type { WatchOptions, WatchStatus } from "./watcher.js";

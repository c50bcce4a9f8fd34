import * as z from "zod/mini";

/**
 * Checkpoints as hosts see them: snapshots of the workspace taken at the start of a task and
 * after every step that changed files, which a host can list, compare and restore (`/undo`,
 * `/rewind`, a timeline). Not yet part of the `Command` / `Event` unions.
 */

/** How a file differs from one state to the next. */
export const FileChangeStatusSchema = z.enum(["added", "modified", "deleted"]);
export type FileChangeStatus = z.infer<typeof FileChangeStatusSchema>;

export const FileChangeSchema = z.object({ path: z.string(), status: FileChangeStatusSchema });
export type FileChange = z.infer<typeof FileChangeSchema>;

/**
 * Why a checkpoint was taken: `baseline` at the start (or resumption) of a task, `step` after a
 * step that changed files, `pre-restore` just before a restore (restoring it undoes the restore),
 * `restore` the state a restore produced.
 */
export const CheckpointKindSchema = z.enum(["baseline", "step", "pre-restore", "restore"]);
export type CheckpointKind = z.infer<typeof CheckpointKindSchema>;

export const CheckpointSchema = z.object({
  /** Stable id (a commit id of the shadow store); any unique prefix of it is accepted back. */
  id: z.string(),
  taskId: z.string(),
  kind: CheckpointKindSchema,
  /** What the step was, e.g. `write_to_file src/a.ts`. */
  label: z.string(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
  /** The task's checkpoint before this one; absent for its first. */
  previousId: z.optional(z.string()),
  /** Files changed since the previous checkpoint of the task (empty for the first). */
  files: z.array(FileChangeSchema),
  /** How many more files changed than `files` lists (long lists are cut). */
  moreFiles: z.optional(z.number()),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export const FileDiffSchema = z.object({
  path: z.string(),
  status: FileChangeStatusSchema,
  /** Lines added and removed; 0 for binary files. */
  added: z.number(),
  removed: z.number(),
  binary: z.boolean(),
  /** The file's unified diff (git format, with its `diff --git` header); absent when not asked for. */
  patch: z.optional(z.string()),
});
export type FileDiff = z.infer<typeof FileDiffSchema>;

export const CheckpointDiffSchema = z.object({
  from: z.string(),
  /** A checkpoint id, or `worktree` for the files as they are now. */
  to: z.string(),
  files: z.array(FileDiffSchema),
});
export type CheckpointDiff = z.infer<typeof CheckpointDiffSchema>;

/** What a restore puts back: the workspace files, the conversation, or both. */
export const RestoreModeSchema = z.enum(["files", "task", "both"]);
export type RestoreMode = z.infer<typeof RestoreModeSchema>;

/** Why checkpoints cannot be used in a workspace; `message` is written for the person. */
export const CheckpointsUnavailableReasonSchema = z.enum([
  /** The workspace is the home directory or `/`. */
  "refused_directory",
  /** No usable `git` on PATH. */
  "git_missing",
  /** The workspace is over the file-count or size limits; checkpoints are off for it. */
  "limits_exceeded",
  /** The store for this workspace's hash belongs to another path. */
  "store_conflict",
  /** No checkpoint was ever taken in this workspace. */
  "no_store",
]);
export type CheckpointsUnavailableReason = z.infer<typeof CheckpointsUnavailableReasonSchema>;

/** The checkpoint commands, also members of the protocol's `Command` union. */
export const CHECKPOINT_COMMANDS = [
  /** Lists checkpoints, oldest first. Answered by `checkpoints_listed`. */
  z.object({ type: z.literal("list_checkpoints"), taskId: z.optional(z.string()) }),
  /**
   * Compares checkpoint `from` with checkpoint `to`, or with the working tree when `to` is
   * absent. Answered by `checkpoint_diff`.
   */
  z.object({ type: z.literal("diff_checkpoints"), from: z.string(), to: z.optional(z.string()) }),
  /**
   * Restores a checkpoint. Files changed outside the task since its last checkpoint are not
   * overwritten unless `force`: the answer is then `checkpoint_restore_conflicts`, and the host
   * asks the person before sending the command again with `force`. Answered by
   * `checkpoint_restored` or `checkpoint_restore_conflicts`.
   */
  z.object({
    type: z.literal("restore_checkpoint"),
    checkpointId: z.string(),
    mode: RestoreModeSchema,
    force: z.optional(z.boolean()),
  }),
] as const;
export const CheckpointCommandSchema = z.discriminatedUnion("type", [...CHECKPOINT_COMMANDS]);
export type CheckpointCommand = z.infer<typeof CheckpointCommandSchema>;

/** The events answering checkpoint commands, also members of the protocol's `Event` union. */
export const CHECKPOINT_EVENTS = [
  z.object({
    type: z.literal("checkpoints_listed"),
    checkpoints: z.array(CheckpointSchema),
    /** Bytes the workspace's checkpoint store takes on disk. */
    storeBytes: z.number(),
  }),
  z.object({ type: z.literal("checkpoint_diff"), diff: CheckpointDiffSchema }),
  z.object({
    type: z.literal("checkpoint_restored"),
    checkpointId: z.string(),
    mode: RestoreModeSchema,
    /** How the workspace changed (for `files` and `both`). */
    changed: z.array(FileChangeSchema),
    /** Restoring this checkpoint undoes the restore; absent when no file changed. */
    undoId: z.optional(z.string()),
  }),
  z.object({
    type: z.literal("checkpoint_restore_conflicts"),
    checkpointId: z.string(),
    mode: RestoreModeSchema,
    /** Files changed outside the task that the restore would overwrite. */
    files: z.array(z.string()),
  }),
  /** Answers any checkpoint command when checkpoints cannot be used in the workspace. */
  z.object({
    type: z.literal("checkpoints_unavailable"),
    reason: CheckpointsUnavailableReasonSchema,
    message: z.string(),
  }),
  /** Answers a command that failed otherwise: an unknown or ambiguous id, a git failure. */
  z.object({ type: z.literal("checkpoint_error"), message: z.string() }),
] as const;
export const CheckpointEventSchema = z.discriminatedUnion("type", [...CHECKPOINT_EVENTS]);
export type CheckpointEvent = z.infer<typeof CheckpointEventSchema>;

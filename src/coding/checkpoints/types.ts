import type { CheckpointsUnavailableReason } from "../../protocol/checkpoint-commands.js";
import type { WatchOptions } from "./watcher.js";

/** Bounds that keep a checkpoint store from growing silently into gigabytes. */
export interface CheckpointLimits {
  /** Files tracked at most; over it, checkpoints are switched off for the workspace. */
  maxFiles: number;
  /** Larger files are left out of checkpoints (and named in the snapshot's `skipped`). */
  maxFileBytes: number;
  /**
   * Bytes the store may take: its size at the last measurement plus the bytes hashed since
   * (uncompressed, so an upper bound). Over it, checkpoints are switched off for the workspace.
   */
  maxTotalBytes: number;
}

export const DEFAULT_LIMITS: CheckpointLimits = {
  maxFiles: 150_000,
  maxFileBytes: 5 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
};

/** How long checkpoints are kept (see `prune`). */
export interface PruneOptions {
  /** Checkpoints older than this go (default 30 days). */
  maxAgeMs?: number;
  /** Newest checkpoints kept per task (default 100). */
  maxPerTask?: number;
  /** Newest checkpoints kept in the workspace (default 1,000). */
  maxTotal?: number;
}

export interface CheckpointStoreOptions {
  /** Bowline's home (`$BOWLINE_HOME` or `~/.bowline`); the store goes under `<home>/checkpoints/`. */
  home: string;
  /** The workspace root: the work tree of the shadow repository. */
  workspace: string;
  limits?: Partial<CheckpointLimits>;
  /** Extra gitignore-style patterns to leave out, beyond `.gitignore` and the built-in list. */
  exclude?: string[];
  /** Create the store when missing (default true); false answers `no_store` instead. */
  create?: boolean;
  /** The environment to take PATH from (default `process.env`); nothing else of it reaches git. */
  env?: Record<string, string | undefined>;
  /** How long to wait for another task's checkpoint operation (default 5 minutes). */
  lockTimeoutMs?: number;
  prune?: PruneOptions;
  /**
   * Watch the workspace for changes, so a checkpoint after a few changes looks only at them
   * (default false; `openCheckpoints` turns it on). Options tune its limits.
   */
  watch?: boolean | WatchOptions;
}

/** Why checkpoints are off; `message` says what to do about it. */
export interface CheckpointsUnavailable {
  unavailable: true;
  reason: CheckpointsUnavailableReason;
  message: string;
}

export function unavailable(reason: CheckpointsUnavailableReason, message: string): CheckpointsUnavailable {
  return { unavailable: true, reason, message };
}

export function isUnavailable(value: unknown): value is CheckpointsUnavailable {
  return (
    typeof value === "object" && value !== null && (value as CheckpointsUnavailable).unavailable === true
  );
}

/** A checkpoint id that matches no checkpoint, or more than one. */
export class CheckpointNotFoundError extends Error {
  readonly code = "checkpoint_not_found";
  constructor(
    readonly id: string,
    ambiguous = false,
  ) {
    super(ambiguous ? `Checkpoint id ${id} is ambiguous: give more characters.` : `No checkpoint ${id}.`);
  }
}

/** A git command of the shadow store failed unexpectedly; `message` carries git's own words. */
export class CheckpointGitError extends Error {
  readonly code = "checkpoint_git_failed";
}

/**
 * Rewinds a task's conversation to the point where a checkpoint was taken. Implemented by the
 * conversation side; `bowline checkpoints restore --mode task|both` calls it.
 */
export interface TaskRewinder {
  rewind(taskId: string, checkpointId: string): Promise<void>;
}

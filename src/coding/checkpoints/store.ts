import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Checkpoint, CheckpointDiff, CheckpointKind } from "../../protocol/checkpoint-commands.js";
import {
  changedFiles,
  findCheckpoint,
  latestOf,
  listCheckpoints,
  recordCheckpoint,
  writeCheckpoint,
} from "./commits.js";
import { type DiffOptions, diffTrees } from "./diff.js";
import { createShadowGit, gitAvailable, runGit, type ShadowGit } from "./git.js";
import { collectGarbage, GC_INTERVAL_MS, pruneCheckpoints, storeSize } from "./housekeeping.js";
import { pathInside, refusalOf, resolveWorkspace, storeDirFor } from "./location.js";
import { withStoreLock } from "./lock.js";
import { newMeta, readMeta, writeMeta } from "./meta.js";
import { type RestoreOutcome, restoreFiles } from "./restore.js";
import { type SnapshotContext, snapshot } from "./snapshot.js";
import {
  type CheckpointLimits,
  type CheckpointStoreOptions,
  type CheckpointsUnavailable,
  DEFAULT_LIMITS,
  isUnavailable,
  type PruneOptions,
  unavailable,
} from "./types.js";
import { acquireWatch, type WatchOptions, type WatchStatus } from "./watcher.js";

/** The outcome of a save: the task's checkpoint for this point, new or (nothing changed) the last. */
export interface SaveOutcome {
  checkpoint: Checkpoint;
  created: boolean;
  /** Files left out of this checkpoint for being over the size limit. */
  skipped: string[];
}

/** The checkpoints of one workspace. Every method runs git in child processes. */
export interface CheckpointStore {
  readonly workspace: string;
  readonly storeDir: string;
  /** Records the workspace for a task (see `TaskCheckpoints.baseline` / `afterStep`). */
  save(taskId: string, kind: CheckpointKind, label: string): Promise<SaveOutcome | CheckpointsUnavailable>;
  /** The checkpoint a full id or unique prefix names (else `CheckpointNotFoundError`). */
  get(id: string): Promise<Checkpoint>;
  /** Checkpoints, oldest first, of one task or all. */
  list(filter?: { taskId?: string }): Promise<Checkpoint[]>;
  /** Compares two checkpoints, or one with the working tree when `to` is absent. */
  diff(from: string, to?: string, options?: DiffOptions): Promise<CheckpointDiff | CheckpointsUnavailable>;
  /** Restores the workspace files of a checkpoint (see `restoreFiles`). */
  restore(id: string, options?: { force?: boolean }): Promise<RestoreOutcome>;
  /** Bytes the store takes on disk. */
  size(): Promise<number>;
  /** Deletes old checkpoints (see `pruneCheckpoints`); returns those deleted. */
  prune(options?: PruneOptions): Promise<Checkpoint[]>;
  /** Repacks the store and frees what pruned checkpoints held. */
  gc(): Promise<void>;
  /** Prunes, then runs gc when a day has passed since the last. */
  housekeeping(): Promise<void>;
  /** How the workspace is watched: folders watched (or why not), how snapshots were taken. */
  watching(): WatchStatus;
  /** Stops watching the workspace (the store stays usable, scanning everything). */
  close(): void;
}

/**
 * Opens (creating unless `create: false`) the shadow store of a workspace, or says why
 * checkpoints cannot be used there. Checkpoint ids are accepted as any unique prefix; an unknown
 * one throws `CheckpointNotFoundError`, a failing git `CheckpointGitError`.
 */
export async function openCheckpointStore(
  options: CheckpointStoreOptions,
): Promise<CheckpointStore | CheckpointsUnavailable> {
  const env = options.env ?? process.env;
  const workspace = await resolveWorkspace(options.workspace);
  const refusal = await refusalOf(workspace, env);
  if (refusal) return unavailable("refused_directory", refusal);
  if (!(await gitAvailable(env))) {
    return unavailable("git_missing", "Checkpoints need git: install it and make sure it is on PATH.");
  }
  const git = createShadowGit(storeDirFor(options.home, workspace), workspace, env);
  const meta = await readMeta(git.storeDir);
  if (meta && meta.workspace !== workspace) {
    return unavailable(
      "store_conflict",
      `The checkpoint store ${git.storeDir} belongs to ${meta.workspace}.`,
    );
  }
  if (!meta && options.create === false) {
    return unavailable("no_store", `No checkpoints were taken in ${workspace} yet.`);
  }
  const settings: StoreSettings = {
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    exclude: options.exclude ?? [],
    lockTimeoutMs: options.lockTimeoutMs ?? 5 * 60_000,
    prune: options.prune ?? {},
    homeInWorkspace: await pathInside(workspace, options.home),
    watch: options.watch ?? false,
  };
  if (!meta) await initStore(git, settings.lockTimeoutMs);
  return createStore(git, settings);
}

interface StoreSettings {
  limits: CheckpointLimits;
  exclude: string[];
  lockTimeoutMs: number;
  prune: PruneOptions;
  homeInWorkspace: string | undefined;
  watch: boolean | WatchOptions;
}

async function initStore(git: ShadowGit, lockTimeoutMs: number): Promise<void> {
  await mkdir(git.storeDir, { recursive: true });
  await withStoreLock(git.storeDir, lockTimeoutMs, async () => {
    if (await readMeta(git.storeDir)) return; // another process made it meanwhile
    // A bare repository with no template (no sample hooks); the work tree is given per call.
    const { GIT_WORK_TREE, GIT_INDEX_FILE, ...env } = git.env;
    await runGit({ ...git, env }, ["init", "--quiet", "--bare", "--template=", git.gitDir]);
    await mkdir(join(git.gitDir, "info"), { recursive: true });
    await writeMeta(git.storeDir, newMeta(git.workspace));
  });
}

function createStore(git: ShadowGit, settings: StoreSettings): CheckpointStore {
  const { watch } = settings;
  let lease = watch ? acquireWatch(git, watch === true ? {} : watch) : undefined;
  /** Runs `work` holding the store lock, with the store's state as other processes left it. */
  const locked = <T>(work: (context: SnapshotContext) => Promise<T>) =>
    withStoreLock(git.storeDir, settings.lockTimeoutMs, async () => {
      const meta = (await readMeta(git.storeDir)) ?? newMeta(git.workspace);
      const { limits, exclude, homeInWorkspace } = settings;
      const { tracker, services } = lease ?? {};
      return work({ git, meta, limits, exclude, homeInWorkspace, tracker, services });
    });
  /** Like `locked`, for work that records the workspace: not while checkpoints are off. */
  const recording = <T>(work: (context: SnapshotContext) => Promise<T | CheckpointsUnavailable>) =>
    locked(async (context) => {
      const off = context.meta.disabled;
      if (off && sameSettings(off, settings)) return unavailable("limits_exceeded", off.message);
      delete context.meta.disabled; // the limits or exclusions changed since: try again
      return work(context);
    });
  const find = async (id: string) => findCheckpoint(await listCheckpoints(git), id);
  const prune = (options?: PruneOptions) =>
    locked(({ meta }) => pruneCheckpoints(git, meta, { ...settings.prune, ...options }));
  const gc = async () => {
    await collectGarbage(git);
    await locked(async ({ meta }) => {
      meta.storeBytes = await storeSize(git);
      await writeMeta(git.storeDir, meta);
    });
  };
  /** Whether gc is due; if so, claims it (under the lock), so two tasks starting together run one. */
  const claimGc = () =>
    locked(async ({ meta }) => {
      if (Date.now() - (meta.lastGcAt ?? 0) < GC_INTERVAL_MS) return false;
      meta.lastGcAt = Date.now();
      await writeMeta(git.storeDir, meta);
      return true;
    });

  return {
    workspace: git.workspace,
    storeDir: git.storeDir,
    save: (taskId, kind, label) =>
      recording(async ({ meta, ...context }) => {
        const { services } = context;
        const previous = await latestOf(git, meta, taskId);
        const snap = await snapshot({ meta, ...context }, previous);
        if (isUnavailable(snap)) return snap;
        if (previous?.tree === snap.tree) {
          await writeMeta(git.storeDir, meta);
          return { checkpoint: previous.checkpoint, created: false, skipped: snap.skipped };
        }
        const files = !previous ? [] : (snap.files ?? (await changedFiles(git, previous.tree, snap.tree)));
        const spec = { taskId, kind, label, tree: snap.tree, previous: previous?.checkpoint, files };
        const saved = await writeCheckpoint(git, spec, services);
        await recordCheckpoint(git, meta, saved, services);
        return { checkpoint: saved.checkpoint, created: true, skipped: snap.skipped };
      }),
    get: async (id) => (await find(id)).checkpoint,
    list: async (filter = {}) => (await listCheckpoints(git, filter.taskId)).map((c) => c.checkpoint),
    diff: async (from, to, options) => {
      const start = await find(from);
      const id = start.checkpoint.id;
      if (to !== undefined) {
        const end = await find(to);
        return {
          from: id,
          to: end.checkpoint.id,
          files: await diffTrees(git, start.tree, end.tree, options),
        };
      }
      return recording(async (context) => {
        const snap = await snapshot(context);
        if (isUnavailable(snap)) return snap;
        await writeMeta(git.storeDir, context.meta);
        return { from: id, to: "worktree", files: await diffTrees(git, start.tree, snap.tree, options) };
      });
    },
    restore: async (id, options = {}) => {
      const target = await find(id);
      return recording((context) => restoreFiles(context, target, options.force === true));
    },
    size: () => storeSize(git),
    prune,
    gc,
    housekeeping: async () => {
      await prune();
      if (await claimGc()) await gc();
    },
    watching: () => lease?.tracker.status() ?? { watching: 0, off: "not asked for", incremental: 0, full: 0 },
    close() {
      lease?.release();
      lease = undefined;
    },
  };
}

function sameSettings(recorded: { limits: CheckpointLimits; exclude: string[] }, settings: StoreSettings) {
  return (
    JSON.stringify(recorded.limits) === JSON.stringify(settings.limits) &&
    JSON.stringify(recorded.exclude) === JSON.stringify(settings.exclude)
  );
}

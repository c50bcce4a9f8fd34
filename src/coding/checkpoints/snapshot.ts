import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { FileChange } from "../../protocol/checkpoint-commands.js";
import { NeedsFullScan } from "./base-trees.js";
import type { StoredCheckpoint } from "./commits.js";
import { excludeFileText, lfsPatterns, writeExcludes } from "./exclusions.js";
import { gitText, runGit, type ShadowGit } from "./git.js";
import { type IncrementalSnapshot, incrementalSnapshot } from "./incremental.js";
import { type StoreMeta, writeMeta } from "./meta.js";
import { indexEntryCount, type PathState, readHead, scanChanges, statPaths } from "./scan.js";
import type { GitServices } from "./services.js";
import {
  CheckpointGitError,
  type CheckpointLimits,
  type CheckpointsUnavailable,
  isUnavailable,
  unavailable,
} from "./types.js";
import { type ChangeTracker, INCREMENTAL, type TrackerBase } from "./watcher.js";

/** Everything a snapshot needs to know about its store. */
export interface SnapshotContext {
  git: ShadowGit;
  meta: StoreMeta;
  limits: CheckpointLimits;
  exclude: string[];
  /** Bowline's home relative to the workspace, when it lies inside it. */
  homeInWorkspace: string | undefined;
  /** What changed since the last snapshot, when the workspace is watched. */
  tracker?: ChangeTracker;
  /** Long-lived git processes, when the workspace is watched. */
  services?: GitServices;
}

export interface Snapshot {
  /** The tree of the workspace as checkpoints see it. */
  tree: string;
  /** Files left out because they are over the size limit, found in this snapshot. */
  skipped: string[];
  /**
   * The files changed since `base`, when known without a `diff-tree`: the incremental snapshot
   * started from `base`'s tree, or HEAD was `base` and the index matched it, so what git's status
   * reports is exactly what changed.
   */
  files?: FileChange[];
}

/**
 * Records the workspace and returns its tree. When it is watched and the watcher can say which
 * paths changed since the last snapshot, only those are looked at (`incrementalSnapshot`);
 * otherwise the whole workspace is scanned (`fullSnapshot`). New nested repositories and
 * oversized files are added to the exclusions; exceeding a limit switches checkpoints off for the
 * workspace. Updates `meta` for the caller to write (it writes it itself only to switch
 * checkpoints off). Call with the store lock held.
 */
export async function snapshot(
  context: SnapshotContext,
  base?: StoredCheckpoint,
): Promise<Snapshot | CheckpointsUnavailable> {
  const rules = await refreshExcludes(context);
  const { tracker, services } = context;
  if (!tracker || !services) return fullSnapshot(context, base);
  const taken = await tracker.take(rules);
  let recorded: TrackerBase | undefined;
  let scan = taken.full ? `full: ${taken.reason}` : INCREMENTAL;
  try {
    if (!taken.full) {
      const quick = await quickSnapshot(context, services, taken.base, taken.paths);
      if ("needsFullScan" in quick) scan = `full: ${quick.needsFullScan}`;
      else {
        if (isUnavailable(quick)) return quick;
        recorded = { tree: quick.tree, fileCount: quick.fileCount, rules: await excludeText(context) };
        const files = base?.tree === taken.base.tree ? quick.files : undefined;
        return { tree: quick.tree, skipped: quick.large, ...(files ? { files } : {}) };
      }
    }
    const snap = await fullSnapshot(context, base);
    if (!isUnavailable(snap) && (!taken.full || taken.trusted)) {
      const fileCount = await indexEntryCount(context.git.gitDir);
      recorded = { tree: snap.tree, fileCount, rules: await excludeText(context) };
    }
    return snap;
  } finally {
    tracker.settle(recorded, scan);
  }
}

/**
 * The incremental snapshot of the changed paths, with the limits and exclusions applied, or why
 * it cannot tell (a full scan must).
 */
async function quickSnapshot(
  context: SnapshotContext,
  services: GitServices,
  base: TrackerBase,
  paths: string[],
): Promise<IncrementalSnapshot | CheckpointsUnavailable | { needsFullScan: string }> {
  const { git, meta, limits } = context;
  let quick: IncrementalSnapshot;
  try {
    quick = await incrementalSnapshot(git, services, base, paths, limits.maxFileBytes);
  } catch (error) {
    if (error instanceof NeedsFullScan || error instanceof CheckpointGitError) {
      return { needsFullScan: error.message };
    }
    throw error;
  }
  const over = limitMessage(git.workspace, limits, quick.fileCount, meta.storeBytes + quick.hashBytes);
  if (over) return switchOff(context, over);
  if (quick.large.length > 0) {
    meta.largeFiles = unique([...meta.largeFiles, ...quick.large]);
    await updateExcludes(context);
  }
  meta.storeBytes += quick.hashBytes;
  return quick;
}

/**
 * Records the whole workspace in the shadow index and returns its tree. Only files git sees as
 * changed are read (the index's stat cache).
 */
async function fullSnapshot(
  context: SnapshotContext,
  base?: StoredCheckpoint,
): Promise<Snapshot | CheckpointsUnavailable> {
  const { git, meta, limits } = context;
  const changes = await scanChanges(git);
  const indexed = await indexEntryCount(git.gitDir);
  // Far over the limit (a whole disk opened as a workspace): no need to look at each file.
  if (indexed + changes.untracked.length > 2 * limits.maxFiles) {
    return switchOff(context, limitMessage(git.workspace, limits, indexed + changes.untracked.length, 0)!);
  }
  const states = await statPaths(git.workspace, [...changes.changed, ...changes.untracked]);
  const plan = planUpdate(new Set(changes.changed), states, limits.maxFileBytes);
  const over = limitMessage(git.workspace, limits, indexed + plan.added, meta.storeBytes + plan.hashBytes);
  if (over) return switchOff(context, over);
  if (changes.nestedRepos.length > 0 || plan.large.length > 0) {
    meta.nestedRepos = unique([...meta.nestedRepos, ...changes.nestedRepos]);
    meta.largeFiles = unique([...meta.largeFiles, ...plan.large]);
    await updateExcludes(context);
  }
  const fromBase =
    base !== undefined && !changes.staged && (await readHead(git.gitDir)) === base.checkpoint.id;
  if (fromBase && plan.update.length === 0 && plan.untrack.length === 0) {
    return { tree: base.tree, skipped: plan.large, files: [] };
  }
  await applyPlan(git, plan);
  meta.storeBytes += plan.hashBytes;
  const tree = await gitText(git, ["write-tree"]);
  return fromBase ? { tree, skipped: plan.large, files: plan.changes } : { tree, skipped: plan.large };
}

/** How the index must change, and what that changes. */
interface UpdatePlan {
  /** Paths to hash again, add or remove. */
  update: string[];
  /** Tracked files now over the size limit, to drop from the index. */
  untrack: string[];
  /** Files over the size limit (tracked or not). */
  large: string[];
  /** Bytes to hash. */
  hashBytes: number;
  /** How many more files the index will hold. */
  added: number;
  /** The changes relative to the index, as a checkpoint lists them. */
  changes: FileChange[];
}

function planUpdate(tracked: Set<string>, states: Map<string, PathState>, maxFileBytes: number): UpdatePlan {
  const plan: UpdatePlan = { update: [], untrack: [], large: [], hashBytes: 0, added: 0, changes: [] };
  for (const [path, state] of states) {
    const known = tracked.has(path);
    if (state.kind === "file" && state.size > maxFileBytes) {
      plan.large.push(path);
      if (known) plan.untrack.push(path);
      if (known) plan.changes.push({ path, status: "deleted" });
      continue;
    }
    plan.update.push(path);
    if (state.kind === "file") plan.hashBytes += state.size;
    if (!known && state.kind === "file") plan.added++;
    if (known && state.kind !== "file") plan.added--;
    if (!known && state.kind === "file") plan.changes.push({ path, status: "added" });
    if (known) plan.changes.push({ path, status: state.kind === "file" ? "modified" : "deleted" });
  }
  plan.changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return plan;
}

async function applyPlan(git: ShadowGit, plan: UpdatePlan): Promise<void> {
  if (plan.untrack.length > 0) {
    await runGit(git, ["update-index", "--force-remove", "-z", "--stdin"], { input: nulJoin(plan.untrack) });
  }
  if (plan.update.length > 0) {
    await runGit(git, ["update-index", "--add", "--remove", "-z", "--stdin"], {
      input: nulJoin(plan.update),
    });
  }
}

/** Records that a limit is exceeded: checkpoints stay off until the limits or exclusions change. */
async function switchOff(context: SnapshotContext, message: string): Promise<CheckpointsUnavailable> {
  const { git, meta, limits, exclude } = context;
  meta.disabled = { message, limits, exclude };
  await writeMeta(git.storeDir, meta);
  return unavailable("limits_exceeded", message);
}

/**
 * The exclusions as they stand, dropping nested repositories and big files that are gone;
 * returns their text.
 */
async function refreshExcludes(context: SnapshotContext): Promise<string> {
  const { meta, git, limits } = context;
  const nested = await keep(meta.nestedRepos, async (path) => exists(join(git.workspace, path, ".git")));
  const large = await keep(meta.largeFiles, async (path) => {
    const state = (await statPaths(git.workspace, [path])).get(path);
    return state?.kind === "file" && state.size > limits.maxFileBytes;
  });
  meta.nestedRepos = nested;
  meta.largeFiles = large;
  return updateExcludes(context);
}

/** Writes the exclusions as `meta` has them (a git process that read the old ones forgets them); their text. */
async function updateExcludes(context: SnapshotContext): Promise<string> {
  const text = await excludeText(context);
  if (await writeExcludes(context.git.gitDir, text)) context.services?.forgetIgnoreRules();
  return text;
}

async function excludeText(context: SnapshotContext): Promise<string> {
  const { meta, git } = context;
  return excludeFileText(context.exclude, await lfsPatterns(git.workspace), meta, context.homeInWorkspace);
}

function limitMessage(workspace: string, limits: CheckpointLimits, files: number, bytes: number) {
  const advice =
    "Leave folders out with .gitignore or the checkpoint exclusions, or raise the limit in the settings.";
  if (files > limits.maxFiles) {
    return (
      `Checkpoints are off for ${workspace}: it has ${files.toLocaleString("en")} files to track, ` +
      `over the limit of ${limits.maxFiles.toLocaleString("en")}. ${advice}`
    );
  }
  if (bytes > limits.maxTotalBytes) {
    return (
      `Checkpoints are off for ${workspace}: its checkpoints would take ${formatBytes(bytes)}, ` +
      `over the limit of ${formatBytes(limits.maxTotalBytes)}. ${advice}`
    );
  }
  return undefined;
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

async function keep(paths: string[], test: (path: string) => Promise<boolean>): Promise<string[]> {
  const results = await Promise.all(paths.map(test));
  return paths.filter((_, i) => results[i]);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

const unique = (values: string[]) => [...new Set(values)].sort();
const nulJoin = (paths: string[]) => `${paths.join("\0")}\0`;

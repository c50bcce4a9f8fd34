import { rmdir, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Checkpoint, FileChange } from "../../protocol/checkpoint-commands.js";
import {
  changedFiles,
  latestOf,
  recordCheckpoint,
  type StoredCheckpoint,
  statusOf,
  writeCheckpoint,
} from "./commits.js";
import { runGit, type ShadowGit, withoutIndex } from "./git.js";
import { writeMeta } from "./meta.js";
import { type SnapshotContext, snapshot } from "./snapshot.js";
import { type CheckpointsUnavailable, isUnavailable } from "./types.js";

export type RestoreOutcome =
  | {
      status: "restored";
      checkpoint: Checkpoint;
      /** How the workspace changed: files added back, modified, or deleted (created after it). */
      changed: FileChange[];
      /** Restoring this undoes the restore; absent when nothing changed. */
      undoId?: string;
    }
  | {
      status: "conflicts";
      checkpoint: Checkpoint;
      /** Files changed since the task's last checkpoint (so not by the task) that would be overwritten. */
      files: string[];
    }
  | CheckpointsUnavailable;

/**
 * Puts the workspace back as `target` recorded it: tracked files are rewritten, files created
 * since are deleted, excluded and ignored files are left alone. The current state is recorded
 * first (a `pre-restore` checkpoint, which undoes the restore, unless the task's latest
 * checkpoint already holds it). Files changed since the task's latest checkpoint were changed by
 * someone else; unless `force`, a restore that would overwrite them changes nothing and names
 * them. Call with the store lock held.
 */
export async function restoreFiles(
  context: SnapshotContext,
  target: StoredCheckpoint,
  force: boolean,
): Promise<RestoreOutcome> {
  const { git, meta, services } = context;
  const checkpoint = target.checkpoint;
  const tip = await latestOf(git, meta, checkpoint.taskId);
  const current = await snapshot(context, tip);
  if (isUnavailable(current)) return current;
  await writeMeta(git.storeDir, meta);
  const differences = await treeDifferences(git, current.tree, target.tree);
  const changed = differences.map(({ path, status }) => ({ path, status }));
  if (changed.length === 0) return { status: "restored", checkpoint, changed };
  const outside = !tip ? [] : (current.files ?? (await changedFiles(git, tip.tree, current.tree)));
  if (!force && outside.length > 0) {
    const touched = new Set(outside.map((file) => file.path));
    const conflicts = changed.filter((file) => touched.has(file.path)).map((file) => file.path);
    if (conflicts.length > 0) return { status: "conflicts", checkpoint, files: conflicts };
  }
  const short = checkpoint.id.slice(0, 10);
  let undo = tip;
  if (!undo || undo.tree !== current.tree) {
    // Published before any file is touched: even a restore that fails half-way can be undone.
    const spec = {
      taskId: checkpoint.taskId,
      kind: "pre-restore" as const,
      label: `before restoring ${short}`,
      tree: current.tree,
      previous: tip?.checkpoint,
      files: outside,
    };
    undo = await writeCheckpoint(git, spec, services);
    await recordCheckpoint(git, meta, undo, services);
  }
  await checkOut(git, target.tree, differences);
  const spec = {
    taskId: checkpoint.taskId,
    kind: "restore" as const,
    label: `restored ${short}`,
    tree: target.tree,
    previous: undo.checkpoint,
    files: changed,
  };
  const restored = await writeCheckpoint(git, spec, services);
  await recordCheckpoint(git, meta, restored, services);
  return { status: "restored", checkpoint, changed, undoId: undo.checkpoint.id };
}

/** Above this many files, one pass over the whole index beats matching each path. */
const PATHWISE_LIMIT = 200;

/** A path that differs between two trees, with its entry in the first (absent: mode `000000`). */
interface Difference extends FileChange {
  mode: string;
  oid: string;
}

/** The paths that differ from `from` to `to` (statuses as seen going to `to`), from `diff-tree --raw`. */
async function treeDifferences(git: ShadowGit, from: string, to: string): Promise<Difference[]> {
  const args = ["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to];
  const { stdout } = await runGit(git, args, { env: withoutIndex(git) });
  const fields = stdout.split("\0");
  const differences: Difference[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // `:<mode from> <mode to> <id from> <id to> <status>`
    const [mode = "", , oid = "", , letter = ""] = fields[i]!.slice(1).split(" ");
    differences.push({ path: fields[i + 1]!, status: statusOf(letter), mode, oid });
  }
  return differences;
}

/**
 * Makes the files match `tree` where `differences` (from the current tree) say they differ. The
 * shadow index may lag behind the workspace (incremental snapshots do not update it), so it is
 * not relied on. A few files are restored by name: those created since are deleted (and folders
 * left empty with them), the others written from `tree` with no index at all. Many are restored
 * by resetting the shadow index to `tree` once those paths are brought up to date in it, which
 * writes only the files that differ.
 */
async function checkOut(git: ShadowGit, tree: string, differences: Difference[]): Promise<void> {
  if (differences.length > PATHWISE_LIMIT) {
    const input = differences
      .map(({ mode, oid, path }) => `${mode === "000000" ? "0" : mode} ${oid}\t${path}\0`)
      .join("");
    await runGit(git, ["update-index", "-z", "--index-info"], { input });
    await runGit(git, ["read-tree", "--reset", "-u", tree]);
    return;
  }
  for (const { path } of differences.filter((difference) => difference.status === "deleted")) {
    await removeFile(git.workspace, path);
  }
  const written = differences.filter((difference) => difference.status !== "deleted");
  if (written.length === 0) return;
  const input = `${written.map((difference) => difference.path).join("\0")}\0`;
  const args = ["--literal-pathspecs", "restore", `--source=${tree}`, "--worktree"];
  const env = withoutIndex(git);
  await runGit(git, [...args, "--pathspec-from-file=-", "--pathspec-file-nul"], { input, env });
}

/** Deletes a file, then the folders it leaves empty (as git does). */
async function removeFile(workspace: string, path: string): Promise<void> {
  await unlink(join(workspace, path)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
  for (let folder = dirname(path); folder !== "."; folder = dirname(folder)) {
    try {
      await rmdir(join(workspace, folder));
    } catch {
      return; // not empty (or gone): the folders above are not empty either
    }
  }
}

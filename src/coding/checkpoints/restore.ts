import type { Checkpoint, FileChange } from "../../protocol/checkpoint-commands.js";
import {
  changedFiles,
  latestOf,
  recordCheckpoint,
  type StoredCheckpoint,
  writeCheckpoint,
} from "./commits.js";
import { runGit, type ShadowGit } from "./git.js";
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
  const { git, meta } = context;
  const checkpoint = target.checkpoint;
  const tip = await latestOf(git, meta, checkpoint.taskId);
  const current = await snapshot(context, tip);
  if (isUnavailable(current)) return current;
  await writeMeta(git.storeDir, meta);
  const changed = await changedFiles(git, current.tree, target.tree);
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
    undo = await writeCheckpoint(git, {
      taskId: checkpoint.taskId,
      kind: "pre-restore",
      label: `before restoring ${short}`,
      tree: current.tree,
      previous: tip?.checkpoint,
      files: outside,
    });
    await recordCheckpoint(git, meta, undo);
  }
  await checkOut(git, target.tree, changed);
  const restored = await writeCheckpoint(git, {
    taskId: checkpoint.taskId,
    kind: "restore",
    label: `restored ${short}`,
    tree: target.tree,
    previous: undo.checkpoint,
    files: changed,
  });
  await recordCheckpoint(git, meta, restored);
  return { status: "restored", checkpoint, changed, undoId: undo.checkpoint.id };
}

/** Above this many files, one pass over the whole index beats matching each path. */
const PATHWISE_LIMIT = 200;

/**
 * Makes the index and the files match `tree`, where `changed` lists every path that differs
 * (the index holds the current tree with fresh stat data). A few files are restored by name;
 * many by resetting the whole index, which still writes only the files that differ.
 */
async function checkOut(git: ShadowGit, tree: string, changed: FileChange[]): Promise<void> {
  if (changed.length <= PATHWISE_LIMIT) {
    const input = `${changed.map((file) => file.path).join("\0")}\0`;
    const args = ["--literal-pathspecs", "restore", `--source=${tree}`, "--staged", "--worktree"];
    await runGit(git, [...args, "--pathspec-from-file=-", "--pathspec-file-nul"], { input });
  } else {
    await runGit(git, ["read-tree", "--reset", "-u", tree]);
  }
}

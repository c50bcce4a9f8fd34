import type { Checkpoint, CheckpointKind, FileChange } from "../../protocol/checkpoint-commands.js";
import { gitText, runGit, type ShadowGit, withoutIndex } from "./git.js";
import { type StoreMeta, writeMeta } from "./meta.js";
import type { GitServices } from "./services.js";
import { CheckpointNotFoundError } from "./types.js";

/**
 * Checkpoints are commits of the shadow repository without parents, one ref each under
 * `refs/bowline/checkpoints/<task>/<id>`: deleting a ref frees exactly that checkpoint, and a
 * task's refs never collide with another's. The commit message carries the checkpoint's data
 * as one JSON line, so listing is a single `for-each-ref`.
 */
const REF_ROOT = "refs/bowline/checkpoints";
/** Changed files recorded per checkpoint; the rest are counted in `moreFiles`. */
const MAX_LISTED_FILES = 500;

export interface NewCheckpoint {
  taskId: string;
  kind: CheckpointKind;
  label: string;
  tree: string;
  /** The task's latest checkpoint, which this one follows. */
  previous: Checkpoint | undefined;
  /** The files changed since `previous`. */
  files: FileChange[];
}

/** A checkpoint with its tree, as the engine uses it. */
export interface StoredCheckpoint {
  checkpoint: Checkpoint;
  tree: string;
}

/**
 * Writes a checkpoint's commit (through the store's long-lived git processes when it has them);
 * `recordCheckpoint` makes it visible.
 */
export async function writeCheckpoint(
  git: ShadowGit,
  spec: NewCheckpoint,
  services?: GitServices,
): Promise<StoredCheckpoint> {
  const data: Omit<Checkpoint, "id"> = {
    taskId: spec.taskId,
    kind: spec.kind,
    label: spec.label,
    createdAt: Math.max(Date.now(), (spec.previous?.createdAt ?? 0) + 1),
    files: spec.files.slice(0, MAX_LISTED_FILES),
  };
  if (spec.previous) data.previousId = spec.previous.id;
  if (spec.files.length > MAX_LISTED_FILES) data.moreFiles = spec.files.length - MAX_LISTED_FILES;
  const subject = `bowline ${spec.kind}: ${spec.label.replace(/\s+/g, " ").slice(0, 100)}`;
  const message = `${subject}\n\n${JSON.stringify(data)}\n`;
  const id = services
    ? await services.writeCommit(commitText(git, spec.tree, message))
    : await gitText(git, ["commit-tree", spec.tree], { input: message });
  return { checkpoint: { id, ...data }, tree: spec.tree };
}

/** A parentless commit as `git commit-tree` writes it, with the shadow environment's identity. */
function commitText(git: ShadowGit, tree: string, message: string): string {
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  const author = `${git.env.GIT_AUTHOR_NAME} <${git.env.GIT_AUTHOR_EMAIL}> ${when}`;
  const committer = `${git.env.GIT_COMMITTER_NAME} <${git.env.GIT_COMMITTER_EMAIL}> ${when}`;
  return `tree ${tree}\nauthor ${author}\ncommitter ${committer}\n\n${message}`;
}

/**
 * Makes a written checkpoint its task's latest and lists it: its ref is created and HEAD moved
 * to it in one transaction. HEAD stays on a commit whose tree is (nearly always) the shadow
 * index, so the HEAD-to-index half of `git status` has nothing to compare. Writes `meta`.
 */
export async function recordCheckpoint(
  git: ShadowGit,
  meta: StoreMeta,
  stored: StoredCheckpoint,
  services?: GitServices,
): Promise<void> {
  const { id, taskId } = stored.checkpoint;
  meta.tips[taskId] = stored;
  await writeMeta(git.storeDir, meta);
  const input = `create ${refName(taskId, id)} ${id}\noption no-deref\nupdate HEAD ${id}\n`;
  if (services) await services.updateRefs(input);
  else await runGit(git, ["update-ref", "--stdin"], { input });
}

/** A task's latest checkpoint: as the store's metadata remembers it, else from the refs. */
export async function latestOf(
  git: ShadowGit,
  meta: StoreMeta,
  taskId: string,
): Promise<StoredCheckpoint | undefined> {
  return meta.tips[taskId] ?? (await listCheckpoints(git, taskId)).at(-1);
}

/** Checkpoints of one task, or of the whole workspace, oldest first. */
export async function listCheckpoints(git: ShadowGit, taskId?: string): Promise<StoredCheckpoint[]> {
  const prefix = taskId === undefined ? `${REF_ROOT}/` : `${REF_ROOT}/${taskKey(taskId)}/`;
  const { stdout } = await runGit(git, [
    "--no-optional-locks",
    "for-each-ref",
    "--format=%(objectname) %(tree) %(contents:body)%00",
    prefix,
  ]);
  const stored: StoredCheckpoint[] = [];
  for (const record of stdout.split("\0")) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/s.exec(record.trim());
    if (!match) continue;
    const [, id = "", tree = "", json = ""] = match;
    try {
      stored.push({ checkpoint: { id, ...JSON.parse(json) }, tree });
    } catch {
      // Not written by this engine (or damaged): not a checkpoint.
    }
  }
  return stored.sort(
    (a, b) =>
      a.checkpoint.createdAt - b.checkpoint.createdAt || a.checkpoint.id.localeCompare(b.checkpoint.id),
  );
}

/** The checkpoint a full id or unique prefix (4+ characters) names. */
export function findCheckpoint(checkpoints: StoredCheckpoint[], id: string): StoredCheckpoint {
  const needle = id.trim().toLowerCase();
  const matches = needle.length >= 4 ? checkpoints.filter((c) => c.checkpoint.id.startsWith(needle)) : [];
  if (matches.length !== 1) throw new CheckpointNotFoundError(id, matches.length > 1);
  return matches[0]!;
}

export async function deleteCheckpoints(git: ShadowGit, checkpoints: Checkpoint[]): Promise<void> {
  if (checkpoints.length === 0) return;
  const input = checkpoints.map((c) => `delete ${refName(c.taskId, c.id)} ${c.id}\n`).join("");
  await runGit(git, ["update-ref", "--stdin"], { input });
}

/** Files that differ between two tree-ishes, as seen going from `from` to `to`. */
export async function changedFiles(git: ShadowGit, from: string, to: string): Promise<FileChange[]> {
  const args = ["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to];
  const { stdout } = await runGit(git, args, { env: withoutIndex(git) });
  const fields = stdout.split("\0");
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    changes.push({ path: fields[i + 1]!, status: statusOf(fields[i]!) });
  }
  return changes;
}

export function statusOf(letter: string): FileChange["status"] {
  if (letter.startsWith("A")) return "added";
  if (letter.startsWith("D")) return "deleted";
  return "modified";
}

function refName(taskId: string, id: string): string {
  return `${REF_ROOT}/${taskKey(taskId)}/${id}`;
}

/** A task id usable as one ref-name component as it is; others are hex-encoded behind `_`. */
function taskKey(taskId: string): string {
  const plain = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(taskId) && !taskId.includes("..");
  return plain && !taskId.endsWith(".lock") && !taskId.endsWith(".")
    ? taskId
    : `_${Buffer.from(taskId).toString("hex")}`;
}

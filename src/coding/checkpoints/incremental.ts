import { lstatSync, readlinkSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { FileChange } from "../../protocol/checkpoint-commands.js";
import { BaseTrees, NeedsFullScan, parentOf } from "./base-trees.js";
import type { ShadowGit } from "./git.js";
import { isTree, type TreeEntry } from "./objects.js";
import type { GitServices } from "./services.js";
import { buildTree } from "./tree-edit.js";
import type { TrackerBase } from "./watcher.js";

/** What the changed paths amount to, relative to the base tree. */
export interface IncrementalSnapshot {
  tree: string;
  fileCount: number;
  files: FileChange[];
  /** Files found over the size limit (left out). */
  large: string[];
  hashBytes: number;
}

/**
 * The workspace's tree from the base tree and the paths that may have changed since (see
 * `ChangeTracker`): each path is looked at on disk and in the base, new files are checked against
 * the ignore rules, changed files hashed, and only the trees on the changed paths rewritten.
 * Neither the index nor any other file is read. Throws `NeedsFullScan` when something is beyond
 * it (a missing object, a name that is not UTF-8, a repository inside).
 */
export async function incrementalSnapshot(
  git: ShadowGit,
  services: GitServices,
  base: TrackerBase,
  dirty: string[],
  maxFileBytes: number,
): Promise<IncrementalSnapshot> {
  const unchanged = { tree: base.tree, fileCount: base.fileCount, files: [], large: [], hashBytes: 0 };
  if (dirty.length === 0) return unchanged;
  const trees = new BaseTrees(services, base.tree);
  const plan = await planChanges(git, services, trees, dirty, maxFileBytes);
  const oids = await hashFiles(git, services, plan.write);
  const edits = new Map<string, TreeEntry | null>(plan.remove.map((path) => [path, null]));
  const files: FileChange[] = [];
  for (const [i, { path, mode, previous }] of plan.write.entries()) {
    const entry = { mode, oid: oids[i]! };
    if (previous && previous.mode === entry.mode && previous.oid === entry.oid) continue;
    edits.set(path, entry);
    files.push({ path, status: previous && !isTree(previous) ? "modified" : "added" });
  }
  const removed = await trees.filesBelow(plan.remove);
  files.push(...removed.map((path) => ({ path, status: "deleted" as const })));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tree = edits.size === 0 ? base.tree : await buildTree(services, trees, edits);
  const added = files.filter((file) => file.status === "added").length;
  return {
    tree,
    fileCount: base.fileCount + added - removed.length,
    files,
    large: plan.large,
    hashBytes: plan.hashBytes,
  };
}

interface Plan {
  /** Files to hash and record, with what the base had there. */
  write: Array<{ path: string; mode: string; info: Stats; previous: TreeEntry | undefined }>;
  /** Base paths (files or folders) that are gone. */
  remove: string[];
  large: string[];
  hashBytes: number;
}

async function planChanges(
  git: ShadowGit,
  services: GitServices,
  trees: BaseTrees,
  dirty: string[],
  maxFileBytes: number,
) {
  const plan: Plan = { write: [], remove: [], large: [], hashBytes: 0 };
  const paths = new Set<string>();
  const appeared: string[] = [];
  for (const raw of dirty) {
    const path = raw.endsWith("/") ? raw.slice(0, -1) : raw;
    if (path === "" || path.split("/").includes(".git")) throw new NeedsFullScan(`${raw} is in a repository`);
    paths.add(path);
    if (raw.endsWith("/")) appeared.push(path);
  }
  await trees.load([...paths].map(parentOf));
  // A folder that appeared where the base had one: each of the base's files there is looked at.
  for (const path of await trees.filesBelow(appeared.filter((p) => isTree(trees.entry(p))))) paths.add(path);
  await trees.load([...paths].map(parentOf));

  const untracked: string[] = [];
  for (const path of paths) {
    const previous = trees.entry(path);
    const info = statOf(join(git.workspace, path));
    if (info && (info.isFile() || info.isSymbolicLink())) {
      if (info.isFile() && info.size > maxFileBytes) {
        plan.large.push(path);
        if (previous) plan.remove.push(path);
        else untracked.push(path);
        continue;
      }
      const mode = info.isSymbolicLink() ? "120000" : info.mode & 0o100 ? "100755" : "100644";
      plan.write.push({ path, mode, info, previous });
      if (!previous || isTree(previous)) untracked.push(path);
      if (isTree(previous)) plan.remove.push(path);
    } else if (previous && !(info?.isDirectory() && isTree(previous))) {
      plan.remove.push(path); // gone, no longer a file or folder, or a file become a folder
    }
  }
  const ignored = await untrackedIgnored(git, services, untracked);
  plan.write = plan.write.filter(({ path }) => !ignored.has(path));
  plan.large = plan.large.filter((path) => trees.entry(path) || !ignored.has(path));
  plan.hashBytes = plan.write.reduce((sum, { info }) => sum + (info.isFile() ? info.size : 0), 0);
  return plan;
}

/**
 * The new files git would leave out: ignored themselves or in an ignored folder (git does not
 * look into those). One in a folder that is a repository of its own needs a full scan, which
 * adds that repository to the exclusions.
 */
async function untrackedIgnored(
  git: ShadowGit,
  services: GitServices,
  paths: string[],
): Promise<Set<string>> {
  const asked = new Set<string>();
  for (const path of paths) for (let p = path; p !== ""; p = parentOf(p)) asked.add(p);
  const ignored = await services.ignored([...asked]);
  const result = new Set<string>();
  for (const path of paths) {
    let folder = parentOf(path);
    let out = ignored.has(path);
    for (; folder !== "" && !out; folder = parentOf(folder)) out = ignored.has(folder);
    if (out) result.add(path);
  }
  const folders = new Set<string>();
  for (const path of paths) {
    if (result.has(path)) continue;
    for (let folder = parentOf(path); folder !== "" && !folders.has(folder); folder = parentOf(folder)) {
      folders.add(folder);
      if (statOf(join(git.workspace, folder, ".git"))) throw new NeedsFullScan(`${folder} is a repository`);
    }
  }
  return result;
}

/** Blob ids of the files, written into the store (a link's blob is its target). */
async function hashFiles(git: ShadowGit, services: GitServices, files: Plan["write"]): Promise<string[]> {
  const oids: string[] = new Array(files.length);
  const regular = files.map((file, i) => ({ ...file, i })).filter((file) => file.mode !== "120000");
  if (regular.some((file) => file.path.includes("\n")))
    throw new NeedsFullScan("a file name holds a newline");
  const hashed = await services.hashFiles(regular.map((file) => join(git.workspace, file.path)));
  regular.forEach((file, k) => {
    oids[file.i] = hashed[k]!;
  });
  for (const [i, file] of files.entries()) {
    if (file.mode !== "120000") continue;
    oids[i] = await services.writeBlob(readlinkSync(join(git.workspace, file.path), { encoding: "buffer" }));
  }
  return oids;
}

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined; // gone, or a parent is no longer a folder
  }
}

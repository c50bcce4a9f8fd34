import { lstatSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { runGit, type ShadowGit } from "./git.js";

/** What changed in the workspace since the shadow index last recorded it. */
export interface WorkspaceChanges {
  /** Tracked paths whose file differs from the index (modified, deleted, changed type). */
  changed: string[];
  /** Paths not tracked yet (not ignored). */
  untracked: string[];
  /** Untracked directories that are git repositories of their own. */
  nestedRepos: string[];
  /** Whether the index differs from HEAD anywhere (normally not: HEAD is the last snapshot). */
  staged: boolean;
}

/**
 * Asks git what changed. `git status` refreshes the index's stat cache, so only files whose
 * size or times differ are read, and with the untracked cache (kept in the shadow index) only
 * directories whose mtime changed are listed again. It writes both caches back: the only index
 * it can touch is the shadow one (submodules are ignored, nested repositories left out).
 */
export async function scanChanges(git: ShadowGit): Promise<WorkspaceChanges> {
  const { stdout } = await runGit(git, [
    "status",
    "--porcelain=v2",
    "-z",
    "--ignore-submodules=all",
    "--no-renames",
  ]);
  return parseStatus(stdout);
}

export function parseStatus(output: string): WorkspaceChanges {
  const changes: WorkspaceChanges = { changed: [], untracked: [], nestedRepos: [], staged: false };
  for (const record of output.split("\0")) {
    if (record.startsWith("? ")) {
      const path = record.slice(2);
      if (path.endsWith("/")) changes.nestedRepos.push(path.slice(0, -1));
      else changes.untracked.push(path);
    } else if (record.startsWith("1 ")) {
      // `1 XY sub mH mI mW hH hI path`: X compares HEAD with the index, Y the index with the file.
      if (record[2] !== ".") changes.staged = true;
      if (record[3] !== ".") changes.changed.push(fieldsFrom(record, 8));
    } else if (record.startsWith("u ")) {
      changes.staged = true;
      changes.changed.push(fieldsFrom(record, 10));
    }
  }
  return changes;
}

/** The rest of a record after `count` space-separated fields (paths may contain spaces). */
function fieldsFrom(record: string, count: number): string {
  let at = 0;
  for (let i = 0; i < count; i++) at = record.indexOf(" ", at) + 1;
  return record.slice(at);
}

export type PathState = { kind: "missing" } | { kind: "file"; size: number } | { kind: "directory" };

/**
 * The state of each path. Synchronous `lstat` is several times faster than a pool of
 * asynchronous ones on big lists (the first checkpoint asks about every file), so paths are
 * looked at in small batches with a turn of the event loop between them.
 */
export async function statPaths(workspace: string, paths: string[]): Promise<Map<string, PathState>> {
  const states = new Map<string, PathState>();
  for (let start = 0; start < paths.length; start += STAT_BATCH) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const path of paths.slice(start, start + STAT_BATCH))
      states.set(path, pathState(join(workspace, path)));
  }
  return states;
}

/** Paths looked at between two turns of the event loop (about a millisecond's work). */
const STAT_BATCH = 128;

function pathState(path: string): PathState {
  try {
    const info = lstatSync(path);
    return info.isDirectory() ? { kind: "directory" } : { kind: "file", size: info.size };
  } catch {
    return { kind: "missing" }; // gone, or a parent is no longer a folder: git drops it too
  }
}

/** The commit HEAD of the shadow repository names (it is always detached), if any. */
export async function readHead(gitDir: string): Promise<string | undefined> {
  const text = await readFile(join(gitDir, "HEAD"), "utf8").catch(() => "");
  return /^[0-9a-f]{40,64}$/.test(text.trim()) ? text.trim() : undefined;
}

/** Entries in the shadow index, from its header (0 when there is no index yet). */
export async function indexEntryCount(gitDir: string): Promise<number> {
  try {
    const handle = await open(join(gitDir, "index"), "r");
    try {
      const header = Buffer.alloc(12);
      const { bytesRead } = await handle.read(header, 0, 12, 0);
      return bytesRead === 12 ? header.readUInt32BE(8) : 0;
    } finally {
      await handle.close();
    }
  } catch {
    return 0;
  }
}

import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Folders never offered for `@path` mentions (dependencies, build output, VCS data). */
const SKIP = new Set([
  "node_modules",
  ".git",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  ".next",
  ".venv",
  "venv",
  "__pycache__",
]);
const KEEP_HIDDEN = new Set([".github", ".bowline", ".clinerules"]);
const MAX_ENTRIES = 20_000;
/** A listing older than this is refreshed (in the background) by the next search. */
const STALE_MS = 30_000;

export interface FileIndex {
  /** Workspace-relative paths (folders end with `/`) matching `fragment`, best first. */
  search(fragment: string, limit: number): string[];
}

/**
 * The workspace's files for `@path` completion, listed on first use without blocking the
 * interface (`onChange` tells the view to search again), bounded in size.
 */
export function createFileIndex(root: string, onChange: () => void): FileIndex {
  let paths: string[] = [];
  let listedAt = 0;
  let listing = false;
  let last: { fragment: string; listedAt: number; limit: number; found: string[] } | undefined;

  const refresh = () => {
    if (listing) return;
    listing = true;
    void listFiles(root).then(
      (found) => {
        paths = found;
        listedAt = Date.now();
        listing = false;
        onChange();
      },
      () => {
        listedAt = Date.now(); // unreadable workspace: no completions, try again later
        listing = false;
      },
    );
  };

  return {
    search(fragment, limit) {
      if (Date.now() - listedAt > STALE_MS) refresh();
      // Views ask again on every render: the last answer is kept until the text or listing changes.
      if (last?.fragment !== fragment || last.listedAt !== listedAt || last.limit !== limit)
        last = { fragment, listedAt, limit, found: rankPaths(paths, fragment, limit) };
      return last.found;
    },
  };
}

export function rankPaths(paths: readonly string[], fragment: string, limit: number): string[] {
  const needle = fragment.toLowerCase();
  const scored: Array<[number, string]> = [];
  for (const path of paths) {
    const lower = path.toLowerCase();
    const name = lower.slice(lower.lastIndexOf("/", lower.length - 2) + 1);
    const score = name.startsWith(needle)
      ? 0
      : lower.startsWith(needle)
        ? 1
        : name.includes(needle)
          ? 2
          : lower.includes(needle)
            ? 3
            : -1;
    if (score >= 0) scored.push([score * 10_000 + path.length, path]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  return scored.slice(0, limit).map(([, path]) => path);
}

async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const queue = [""];
  while (queue.length > 0 && found.length < MAX_ENTRIES) {
    const dir = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skipped
    }
    for (const entry of entries) {
      if (SKIP.has(entry.name) || (entry.name.startsWith(".") && !KEEP_HIDDEN.has(entry.name))) continue;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        found.push(`${path}/`);
        queue.push(path);
      } else if (entry.isFile()) found.push(path);
    }
  }
  return found.slice(0, MAX_ENTRIES);
}

import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { checkNotIgnored } from "../ignore/access.js";
import { type IgnoreRules, ignoreSourceLabel } from "../ignore/ignore-rules.js";
import { type ListPathsRequest, listPaths } from "../search/list-paths.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const describe = (maxEntries: number) =>
  `List a directory of the workspace (directories end with "/"). recursive=true lists the tree, nearest entries first, up to ${maxEntries}, skipping .gitignored files and dependency/build folders (node_modules, .git, dist, ...; list one directly to see inside). Entries marked "${LOCK}" are blocked by .bowlineignore.`;

/** Marks entries blocked by the ignore file, as Cline does. */
export const LOCK = "🔒 ";

const schema = z.object({
  path: z.string().check(z.describe('Directory to list, relative to the workspace root ("." for the root).')),
  recursive: z.optional(
    z
      .boolean()
      .check(z.describe("List the contents of subdirectories too. Defaults to false (top level only).")),
  ),
});

export type ListFilesInput = z.infer<typeof schema>;

export interface ListFilesDetails {
  /** Workspace-relative path of the directory listed. */
  path: string;
  recursive: boolean;
  /** Workspace-relative entries shown; directories end with `/`. */
  entries: string[];
  /** The shown entries blocked by the ignore file (shown with a lock; blocked directories are not entered). */
  blocked: string[];
  /** How many entries were found, shown or not. */
  total: number;
  truncated: boolean;
}

export interface ListFilesOptions {
  workspace: Workspace;
  /** The person's ignore rules; blocked entries are marked with `LOCK`. */
  ignore?: IgnoreRules;
  /** Most entries shown. Default 200. */
  maxEntries?: number;
  /** A recursive listing stops reading after this many files. Default 200_000. */
  maxScannedFiles?: number;
  /** rg executable instead of `@vscode/ripgrep`'s; when it cannot start, a built-in walker runs. */
  rgPath?: string;
}

export function createListFilesTool(
  options: ListFilesOptions,
): ToolHandler<ListFilesInput, ListFilesDetails> {
  const maxEntries = options.maxEntries ?? 200;
  const maxScannedFiles = options.maxScannedFiles ?? 200_000;
  const { workspace, ignore } = options;
  return {
    name: "list_files",
    description: describe(maxEntries),
    inputSchema: schema,
    mutates: false,
    summarize: (input) => `list_files ${input.path}${input.recursive ? " (recursive)" : ""}`,
    async execute(input, ctx) {
      const resolved = resolveToolPath(workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      const blockedPath = checkNotIgnored(ignore, abs, workspace);
      if (blockedPath !== undefined) return errorResult(blockedPath);
      const recursive = input.recursive === true;
      const isBlocked = blockedTest(ignore, abs);
      let listing: Listing;
      try {
        const stats = await fs.stat(abs);
        if (!stats.isDirectory())
          return errorResult(`${display} is a file, not a directory. Use read_file to read it.`);
        listing = recursive
          ? await listRecursive(
              { root: workspace.root, dir: abs, signal: ctx.signal, rgPath: options.rgPath },
              { maxEntries, maxScannedFiles, isBlocked },
            )
          : await listFlat(abs, maxEntries, isBlocked);
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
      const prefix = display === "." ? "" : `${display}/`;
      const entries = listing.entries.map((entry) => prefix + entry);
      const blocked = listing.blocked.map((entry) => prefix + entry);
      const truncated = listing.total > entries.length || listing.incomplete;
      const details = { path: display, recursive, entries, blocked, total: listing.total, truncated };
      const source = ignore === undefined ? "" : ignoreSourceLabel(ignore);
      return { content: render(details, listing.incomplete, source), details };
    },
  };
}

/** Entries relative to the listed directory, in display order. */
interface Listing {
  entries: string[];
  /** The subset of `entries` blocked by the ignore file. */
  blocked: string[];
  total: number;
  /** The scan stopped early, so `total` is a lower bound. */
  incomplete: boolean;
}

/** Whether a path relative to the listed directory is blocked by the ignore file. */
type BlockedTest = (relPath: string, isDirectory: boolean) => boolean;

function blockedTest(ignore: IgnoreRules | undefined, abs: string): BlockedTest {
  if (ignore === undefined) return () => false;
  return (relPath, isDirectory) => ignore.isIgnored(path.join(abs, relPath), isDirectory);
}

async function listFlat(abs: string, maxEntries: number, isBlocked: BlockedTest): Promise<Listing> {
  const dirents = await fs.readdir(abs, { withFileTypes: true });
  const named = await Promise.all(
    dirents.map(async (dirent) => ({ name: dirent.name, dir: await isDirectory(abs, dirent) })),
  );
  const shown = sortEntries(named).slice(0, maxEntries);
  const entries = shown.map((e) => (e.dir ? `${e.name}/` : e.name));
  const blocked = shown.filter((e) => isBlocked(e.name, e.dir)).map((e) => (e.dir ? `${e.name}/` : e.name));
  return { entries, blocked, total: named.length, incomplete: false };
}

async function isDirectory(parent: string, dirent: Dirent): Promise<boolean> {
  if (dirent.isDirectory()) return true;
  if (!dirent.isSymbolicLink()) return false;
  try {
    return (await fs.stat(path.join(parent, dirent.name))).isDirectory();
  } catch {
    return false; // A dangling link is shown as a plain entry.
  }
}

function sortEntries<T extends { name: string; dir: boolean }>(entries: T[]): T[] {
  return entries.sort((a, b) => (a.dir !== b.dir ? (a.dir ? -1 : 1) : compareNames(a.name, b.name)));
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface RecursiveLimits {
  maxEntries: number;
  maxScannedFiles: number;
  isBlocked: BlockedTest;
}

interface DirectoryNode {
  dirs: Set<string>;
  files: Set<string>;
}

/**
 * Files from `rg --files` (so ignore files are honoured), shown breadth-first with their
 * directories. Blocked directories are shown but not entered.
 */
async function listRecursive(request: ListPathsRequest, limits: RecursiveLimits): Promise<Listing> {
  const children = new Map<string, DirectoryNode>();
  const childrenOf = (dir: string) => {
    let node = children.get(dir);
    if (node === undefined) {
      node = { dirs: new Set(), files: new Set() };
      children.set(dir, node);
    }
    return node;
  };
  const seenDirs = new Set<string>();
  let scanned = 0;
  const run = await listPaths(request, (file) => {
    addFile(file, seenDirs, childrenOf);
    return ++scanned < limits.maxScannedFiles;
  });
  if (run.error !== undefined) throw new Error(`ripgrep failed to list files: ${run.error}`);
  const entries: string[] = [];
  const blocked: string[] = [];
  let total = 0;
  const queue = [""];
  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i]!;
    const node = childrenOf(dir);
    const base = dir === "" ? "" : `${dir}/`;
    const level = sortEntries([
      ...[...node.dirs].map((name) => ({ name, dir: true })),
      ...[...node.files].map((name) => ({ name, dir: false })),
    ]);
    total += level.length;
    for (const entry of level) {
      const shown = entries.length < limits.maxEntries;
      // Directories are always checked (a blocked one is not entered); files only when shown.
      const isBlocked = (entry.dir || shown) && limits.isBlocked(base + entry.name, entry.dir);
      if (entry.dir && !isBlocked) queue.push(base + entry.name);
      if (!shown) continue;
      const line = entry.dir ? `${base}${entry.name}/` : base + entry.name;
      entries.push(line);
      if (isBlocked) blocked.push(line);
    }
  }
  return { entries: entries.sort(compareAsTree), blocked, total, incomplete: run.stopped };
}

/** Records `file` and its parent directories; stops at the first directory already recorded. */
function addFile(file: string, seenDirs: Set<string>, childrenOf: (dir: string) => DirectoryNode): void {
  let end = file.lastIndexOf("/");
  childrenOf(end === -1 ? "" : file.slice(0, end)).files.add(file.slice(end + 1));
  while (end !== -1) {
    const dir = file.slice(0, end);
    if (seenDirs.has(dir)) break; // Its ancestors were recorded with it.
    seenDirs.add(dir);
    const parentEnd = dir.lastIndexOf("/");
    childrenOf(parentEnd === -1 ? "" : dir.slice(0, parentEnd)).dirs.add(dir.slice(parentEnd + 1));
    end = parentEnd;
  }
}

/** Orders paths so that each directory's contents follow it, directories before files. */
function compareAsTree(a: string, b: string): number {
  const as = a.replace(/\/$/, "").split("/");
  const bs = b.replace(/\/$/, "").split("/");
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] === bs[i]) continue;
    const aDir = i < as.length - 1 || a.endsWith("/");
    const bDir = i < bs.length - 1 || b.endsWith("/");
    if (aDir !== bDir) return aDir ? -1 : 1;
    return compareNames(as[i]!, bs[i]!);
  }
  return as.length - bs.length;
}

function render(details: ListFilesDetails, incomplete: boolean, ignoreSource: string): string {
  if (details.entries.length === 0) {
    return details.recursive
      ? `No files found in ${details.path} (ignored and dependency directories are skipped).`
      : `${details.path} is empty.`;
  }
  const notes: string[] = [];
  if (incomplete) {
    notes.push(`(The directory is very large; the listing stopped early. List a subdirectory to see more.)`);
  } else if (details.truncated) {
    notes.push(
      `(Showing ${details.entries.length} of ${details.total} entries. List a subdirectory to see more.)`,
    );
  }
  const blocked = new Set(details.blocked);
  if (blocked.size > 0) {
    notes.push(
      `(Entries marked ${LOCK.trim()} are blocked by ${ignoreSource} and cannot be read or changed.)`,
    );
  }
  const lines = details.entries.map((entry) => (blocked.has(entry) ? LOCK + entry : entry));
  return [lines.join("\n"), ...notes].join("\n\n");
}

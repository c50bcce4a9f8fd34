import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { commonRipgrepArgs, runRipgrep } from "../search/ripgrep.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const describe = (maxEntries: number) =>
  `List the files and directories in a directory of the workspace; directories end with "/". Paths are relative to the workspace root. With recursive=true, lists the whole tree, nearest entries first, up to ${maxEntries} entries, skipping version control, dependency and build directories (node_modules, .git, dist, ...) and files ignored by .gitignore. Use it to explore; use search_files to find content.`;

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
  /** How many entries were found, shown or not. */
  total: number;
  truncated: boolean;
}

export interface ListFilesOptions {
  workspace: Workspace;
  /** Most entries shown. Default 200. */
  maxEntries?: number;
  /** A recursive listing stops reading after this many files. Default 50_000. */
  maxScannedFiles?: number;
}

export function createListFilesTool(
  options: ListFilesOptions,
): ToolHandler<ListFilesInput, ListFilesDetails> {
  const maxEntries = options.maxEntries ?? 200;
  const maxScannedFiles = options.maxScannedFiles ?? 50_000;
  return {
    name: "list_files",
    description: describe(maxEntries),
    inputSchema: schema,
    mutates: false,
    summarize: (input) => `list_files ${input.path}${input.recursive ? " (recursive)" : ""}`,
    async execute(input, ctx) {
      const resolved = resolveToolPath(options.workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      const recursive = input.recursive === true;
      let listing: Listing;
      try {
        const stats = await fs.stat(abs);
        if (!stats.isDirectory())
          return errorResult(`${display} is a file, not a directory. Use read_file to read it.`);
        listing = recursive
          ? await listRecursive(abs, maxEntries, maxScannedFiles, ctx.signal)
          : await listFlat(abs, maxEntries);
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
      const prefix = display === "." ? "" : `${display}/`;
      const entries = listing.entries.map((entry) => prefix + entry);
      const truncated = listing.total > entries.length || listing.incomplete;
      const details = { path: display, recursive, entries, total: listing.total, truncated };
      return { content: render(details, listing.incomplete), details };
    },
  };
}

/** Entries relative to the listed directory, in display order. */
interface Listing {
  entries: string[];
  total: number;
  /** The scan stopped early, so `total` is a lower bound. */
  incomplete: boolean;
}

async function listFlat(abs: string, maxEntries: number): Promise<Listing> {
  const dirents = await fs.readdir(abs, { withFileTypes: true });
  const named = await Promise.all(
    dirents.map(async (dirent) => ({ name: dirent.name, dir: await isDirectory(abs, dirent) })),
  );
  const entries = sortEntries(named).map((e) => (e.dir ? `${e.name}/` : e.name));
  return { entries: entries.slice(0, maxEntries), total: entries.length, incomplete: false };
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

/** Files from `rg --files` (so ignore files are honoured), shown breadth-first with their directories. */
async function listRecursive(
  abs: string,
  maxEntries: number,
  maxScannedFiles: number,
  signal: AbortSignal,
): Promise<Listing> {
  const children = new Map<string, { dirs: Set<string>; files: Set<string> }>();
  const childrenOf = (dir: string) => {
    let node = children.get(dir);
    if (node === undefined) {
      node = { dirs: new Set(), files: new Set() };
      children.set(dir, node);
    }
    return node;
  };
  let scanned = 0;
  const run = await runRipgrep(
    ["--files", ...commonRipgrepArgs()],
    abs,
    (file) => {
      const parts = file.replace(/^\.\//, "").split("/");
      for (let i = 0; i < parts.length - 1; i++) childrenOf(parts.slice(0, i).join("/")).dirs.add(parts[i]!);
      childrenOf(parts.slice(0, -1).join("/")).files.add(parts[parts.length - 1]!);
      return ++scanned < maxScannedFiles;
    },
    signal,
  );
  if (run.exitCode === 2 && scanned === 0) throw new Error(`ripgrep failed to list files: ${run.stderr}`);
  const entries: string[] = [];
  let total = 0;
  const queue = [""];
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    const node = childrenOf(dir);
    const base = dir === "" ? "" : `${dir}/`;
    const level = sortEntries([
      ...[...node.dirs].map((name) => ({ name, dir: true })),
      ...[...node.files].map((name) => ({ name, dir: false })),
    ]);
    total += level.length;
    for (const entry of level) {
      if (entry.dir) queue.push(base + entry.name);
      if (entries.length < maxEntries) entries.push(entry.dir ? `${base}${entry.name}/` : base + entry.name);
    }
  }
  return { entries: entries.sort(compareAsTree), total, incomplete: run.stopped };
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

function render(details: ListFilesDetails, incomplete: boolean): string {
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
  return [details.entries.join("\n"), ...notes].join("\n\n");
}

import fs from "node:fs/promises";
import path from "node:path";
import { compileGitignore, type GitignoreMatcher, patternLines } from "../ignore/gitignore-matcher.js";
import { SKIPPED_DIRECTORIES } from "./ripgrep.js";

/** Per-directory ignore files honoured by the walker (as ripgrep does without git). */
const DIRECTORY_IGNORE_FILES = [".gitignore", ".ignore"];

interface ScopedMatcher {
  /** Absolute directory the patterns are relative to. */
  base: string;
  matcher: GitignoreMatcher;
}

export interface WalkOptions {
  /** Ignore files are read from this directory (the workspace root) down to `start`. */
  root: string;
  /** Absolute directory to walk. */
  start: string;
  /** Directory names skipped below `start`. Default `SKIPPED_DIRECTORIES`. */
  skipDirectories?: readonly string[];
  signal?: AbortSignal;
}

/**
 * The pure-Node stand-in for `rg --files`: every regular file below `start`, depth-first in
 * name order, skipping hidden-dependency/build directories and paths ignored by `.gitignore` /
 * `.ignore` files. Symbolic links are not followed. Unreadable directories are skipped.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string> {
  const skip = new Set(options.skipDirectories ?? SKIPPED_DIRECTORIES);
  const scopes = await ancestorScopes(options.root, options.start);
  yield* walkDirectory(options.start, scopes, skip, options.signal);
}

async function* walkDirectory(
  dir: string,
  inherited: ScopedMatcher[],
  skip: Set<string>,
  signal: AbortSignal | undefined,
): AsyncGenerator<string> {
  if (signal?.aborted) return;
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return; // Unreadable or vanished: ripgrep reports and skips these too.
  }
  const own = await scopeOf(dir, entries);
  const scopes = own === undefined ? inherited : [...inherited, own];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (skip.has(entry.name) || isIgnoredBy(scopes, abs, true)) continue;
      yield* walkDirectory(abs, scopes, skip, signal);
    } else if (entry.isFile() && !isIgnoredBy(scopes, abs, false)) {
      yield abs;
    }
  }
}

/** The innermost ignore file with a verdict decides. */
function isIgnoredBy(scopes: ScopedMatcher[], abs: string, isDirectory: boolean): boolean {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const { base, matcher } = scopes[i]!;
    const rel = path.relative(base, abs).split(path.sep).join("/");
    const verdict = matcher.test(rel, isDirectory);
    if (verdict !== undefined) return verdict;
  }
  return false;
}

async function scopeOf(
  dir: string,
  entries?: import("node:fs").Dirent[],
): Promise<ScopedMatcher | undefined> {
  const lines: string[] = [];
  for (const name of DIRECTORY_IGNORE_FILES) {
    if (entries !== undefined && !entries.some((e) => e.name === name && e.isFile())) continue;
    try {
      lines.push(...patternLines(await fs.readFile(path.join(dir, name), "utf8")));
    } catch {
      // Absent or unreadable: no rules.
    }
  }
  const matcher = compileGitignore(lines);
  return matcher.empty ? undefined : { base: dir, matcher };
}

/** Ignore files of `root` and each directory between it and `start` (excluded). */
async function ancestorScopes(root: string, start: string): Promise<ScopedMatcher[]> {
  const rel = path.relative(root, start);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return [];
  const dirs = [root];
  const parts = rel === "" ? [] : rel.split(path.sep);
  for (let i = 0; i < parts.length - 1; i++) dirs.push(path.join(root, ...parts.slice(0, i + 1)));
  if (rel === "") return [];
  const scopes = await Promise.all(dirs.map((dir) => scopeOf(dir)));
  return scopes.filter((s): s is ScopedMatcher => s !== undefined);
}

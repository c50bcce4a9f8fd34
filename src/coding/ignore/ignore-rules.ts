import fs from "node:fs";
import path from "node:path";
import { compileGitignore, type GitignoreMatcher, patternLines } from "./gitignore-matcher.js";

/** Ignore files read at the workspace root, in order; rules of later files win. */
export const IGNORE_FILE_NAMES = [".clineignore", ".bowlineignore"] as const;

/**
 * The person's rules for files the agent must not touch: `.bowlineignore` (and `.clineignore`,
 * for compatibility) at the workspace root, in gitignore syntax. Only root files count. The ignore
 * files themselves are always ignored while they exist, so the agent cannot edit its own limits.
 */
export interface IgnoreRules {
  /** Absolute path of the workspace root the rules belong to. */
  readonly root: string;
  /**
   * Whether `absPath` (absolute, inside the root) is ignored. Paths outside the root never are.
   * `isDirectory` is looked up on disk when not given (a missing path counts as a file).
   * Checks the ignore files for changes first (at most every `recheckMs`). Never throws.
   */
  isIgnored(absPath: string, isDirectory?: boolean): boolean;
  /** The pattern lines in effect (comments and blank lines dropped), in file order. */
  readonly patterns: readonly string[];
  /** Names of the ignore files found, e.g. `[".bowlineignore"]`; empty when there are none. */
  readonly sources: readonly string[];
  /** Rereads the ignore files when their size or modification time changed. Returns true if reloaded. */
  reloadIfChanged(): boolean;
}

export interface IgnoreRulesOptions {
  /** The ignore files are re-checked at most this often. Default 1000 ms; 0 checks every call. */
  recheckMs?: number;
}

interface Loaded {
  signature: string;
  matcher: GitignoreMatcher;
  patterns: string[];
  sources: string[];
}

export function createIgnoreRules(workspaceRoot: string, options: IgnoreRulesOptions = {}): IgnoreRules {
  const root = path.resolve(workspaceRoot);
  const recheckMs = options.recheckMs ?? 1000;
  let loaded = load(root);
  let checkedAt = Date.now();
  const reloadIfChanged = (): boolean => {
    checkedAt = Date.now();
    if (signatureOf(root) === loaded.signature) return false;
    loaded = load(root);
    return true;
  };
  return {
    root,
    get patterns() {
      return loaded.patterns;
    },
    get sources() {
      return loaded.sources;
    },
    reloadIfChanged,
    isIgnored(absPath, isDirectory) {
      if (Date.now() - checkedAt >= recheckMs) reloadIfChanged();
      if (loaded.sources.length === 0) return false;
      const rel = path.relative(root, absPath);
      if (rel === "" || rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return false;
      const posix = rel.split(path.sep).join("/");
      if ((IGNORE_FILE_NAMES as readonly string[]).includes(posix)) return true;
      return loaded.matcher.isIgnored(posix, isDirectory ?? isDirectoryOnDisk(absPath));
    },
  };
}

function load(root: string): Loaded {
  const patterns: string[] = [];
  const sources: string[] = [];
  for (const name of IGNORE_FILE_NAMES) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(root, name), "utf8");
    } catch {
      continue; // Absent or unreadable: no rules from this file.
    }
    sources.push(name);
    for (const line of patternLines(text)) {
      const trimmed = line.trim();
      if (trimmed !== "" && !trimmed.startsWith("#")) patterns.push(line);
    }
  }
  return { signature: signatureOf(root), matcher: compileGitignore(patterns), patterns, sources };
}

function signatureOf(root: string): string {
  return IGNORE_FILE_NAMES.map((name) => {
    try {
      const stats = fs.statSync(path.join(root, name));
      return `${stats.size}:${stats.mtimeMs}`;
    } catch {
      return "-";
    }
  }).join("|");
}

function isDirectoryOnDisk(absPath: string): boolean {
  try {
    return fs.statSync(absPath).isDirectory();
  } catch {
    return false;
  }
}

/** The name to show in messages: the ignore file(s) in effect. */
export function ignoreSourceLabel(ignore: IgnoreRules): string {
  return ignore.sources.length === 0 ? ".bowlineignore" : ignore.sources.join(" / ");
}

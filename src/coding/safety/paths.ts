import os from "node:os";
import path from "node:path";

/** Where a call runs, for path rules and protected paths. */
export interface PathContext {
  /** Absolute, symlink-free workspace root. */
  root: string;
  /** The person's home directory (`~`). */
  home: string;
  /** Absolute directories outside the workspace whose files always need approval to edit (`~/.bowline`). */
  protectedDirs: readonly string[];
}

export function createPathContext(root: string, protectedDirs: readonly string[] = []): PathContext {
  return { root, home: os.homedir(), protectedDirs };
}

/** `p` as an absolute path: `~` is the home directory, relative paths start at `base`. */
export function absolutePath(context: PathContext, p: string, base = context.root): string {
  if (p === "~") return context.home;
  if (p.startsWith("~/")) return path.join(context.home, p.slice(2));
  return path.resolve(base, p);
}

export function isWithin(dir: string, abs: string): boolean {
  const rel = path.relative(dir, abs);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Temporary directories: writing there is like writing in the workspace. */
export function isTemporary(abs: string): boolean {
  return [os.tmpdir(), "/tmp", "/var/tmp"].some((dir) => isWithin(dir, abs));
}

/** Ignore files whose edits always need approval, wherever they are in the workspace. */
const IGNORE_FILES = new Set([".gitignore", ".bowlineignore", ".clineignore", ".gitattributes"]);

/**
 * Why editing `abs` always needs approval (the repository's `.git`, Bowline's `.bowline`
 * settings and hooks, ignore files, `.env` files, anything outside the workspace), or undefined.
 */
export function protectedReason(context: PathContext, abs: string): string | undefined {
  if (context.protectedDirs.some((dir) => isWithin(path.resolve(dir), abs))) {
    return `${abs} is in a protected directory`;
  }
  if (!isWithin(context.root, abs)) return `${abs} is outside the workspace`;
  const segments = path.relative(context.root, abs).split(path.sep);
  if (segments.includes(".git")) return `${abs} is inside a .git directory`;
  if (segments[0] === ".bowline") return `${abs} is in the project's .bowline settings`;
  const name = segments.at(-1) ?? "";
  if (IGNORE_FILES.has(name)) return `${abs} is an ignore file`;
  if (/^\.env(\..+)?$/.test(name))
    return `${abs} holds environment secrets, which are masked in what the model reads`;
  return undefined;
}

/**
 * A path glob as a regular expression over absolute paths: `**` any depth, `*` and `?` within
 * one segment, `{a,b}` alternatives. A pattern without glob characters also matches what is
 * under it (a directory).
 */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") {
      depth++;
      source += "(?:";
    } else if (char === "}" && depth > 0) {
      depth--;
      source += ")";
    } else if (char === "," && depth > 0) source += "|";
    else source += char.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  const directory = /[*?{]/.test(glob) ? "" : "(?:/.*)?";
  return new RegExp(`^${source}${directory}$`);
}

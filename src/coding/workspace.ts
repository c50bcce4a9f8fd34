import fs from "node:fs";
import path from "node:path";

/**
 * The directory the coding tools work in. Every path a model gives goes through `resolve`,
 * which keeps it inside the root, symlinks included.
 */
export interface Workspace {
  /** Absolute, symlink-free path of the workspace root. */
  readonly root: string;
  /**
   * The absolute, symlink-free path `path` (relative to the root, or absolute) names.
   * Throws `PathOutsideWorkspaceError` when it lies outside the root, and the file system's own
   * error (e.g. `ELOOP`, `EACCES`) when it cannot be checked.
   */
  resolve(path: string): string;
  /** `abs` relative to the root with `/` separators, for display; `.` for the root itself. */
  relative(abs: string): string;
}

/** A path a model gave points outside the workspace. The message tells the model what to do. */
export class PathOutsideWorkspaceError extends Error {
  readonly code = "path_outside_workspace";

  constructor(
    readonly requestedPath: string,
    readonly root: string,
    readonly resolvedPath: string,
  ) {
    const via = path.resolve(root, requestedPath) === resolvedPath ? "" : ` (it resolves to ${resolvedPath})`;
    super(
      `The path "${requestedPath}" is outside the workspace ${root}${via}. ` +
        `Only files inside the workspace can be used: give a path relative to the workspace root, e.g. "src/index.ts".`,
    );
    this.name = "PathOutsideWorkspaceError";
  }
}

/** Opens the workspace rooted at `root`, which must exist. */
export function createWorkspace(root: string): Workspace {
  const realRoot = fs.realpathSync.native(path.resolve(root));
  return {
    root: realRoot,
    resolve(requested) {
      const real = realpathOfDeepestExisting(path.resolve(realRoot, requested));
      if (!isInside(realRoot, real)) throw new PathOutsideWorkspaceError(requested, realRoot, real);
      return real;
    },
    relative(abs) {
      const rel = path.relative(realRoot, abs);
      if (rel === "") return ".";
      if (!isInside(realRoot, abs)) return abs;
      return rel.split(path.sep).join("/");
    },
  };
}

function isInside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

const MAX_SYMLINK_HOPS = 40;

/**
 * The real path of `abs` where it exists; for a path that does not exist yet, the real path of its
 * deepest existing ancestor joined with the rest. Dangling symlinks are followed to where they
 * point, so creating a file through one cannot land outside the workspace unnoticed.
 */
function realpathOfDeepestExisting(abs: string, hops = 0): string {
  try {
    return fs.realpathSync.native(abs);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const candidate = path.join(realpathOfDeepestExisting(parent, hops), path.basename(abs));
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(candidate);
  } catch (error) {
    if (isMissing(error)) return candidate;
    throw error;
  }
  if (!stats.isSymbolicLink()) return candidate;
  if (hops >= MAX_SYMLINK_HOPS) {
    throw Object.assign(new Error(`Too many levels of symbolic links: ${candidate}`), { code: "ELOOP" });
  }
  const target = path.resolve(path.dirname(candidate), fs.readlinkSync(candidate));
  return realpathOfDeepestExisting(target, hops + 1);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

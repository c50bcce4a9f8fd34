import type { ToolResult } from "../../agent/tool.js";
import { PathOutsideWorkspaceError, type Workspace } from "../workspace.js";

/** A failure the model can recover from, with a message telling it how. */
export function errorResult(message: string): ToolResult<never> {
  return { content: message, isError: true };
}

/** A model-given path resolved inside the workspace, or the error result to return instead. */
export type ResolvedPath =
  | { ok: true; abs: string; display: string }
  | { ok: false; result: ToolResult<never> };

/** Resolves `path` through the workspace; an escape becomes an error result, other errors throw. */
export function resolveToolPath(workspace: Workspace, path: string): ResolvedPath {
  try {
    const abs = workspace.resolve(path);
    return { ok: true, abs, display: workspace.relative(abs) };
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) return { ok: false, result: errorResult(error.message) };
    const message = describeFileError(error, path);
    if (message !== undefined) return { ok: false, result: errorResult(message) };
    throw error;
  }
}

/**
 * The model-facing message for a file system error the model can act on (missing file, wrong
 * kind of entry, no permission), or undefined for any other error, which the caller rethrows.
 */
export function describeFileError(error: unknown, display: string): string | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOENT":
      return `${display} does not exist. Check the path (relative to the workspace root), or use list_files to see what is there.`;
    case "ENOTDIR":
      return `${display} cannot be used: a part of its path is a file, not a directory.`;
    case "EISDIR":
      return `${display} is a directory, not a file. Use list_files to see its contents.`;
    case "EACCES":
    case "EPERM":
      return `Permission denied for ${display}.`;
    case "ELOOP":
      return `${display} could not be resolved: too many levels of symbolic links.`;
    default:
      return undefined;
  }
}

import path from "node:path";
import { commonRipgrepArgs, isRipgrepUnavailable, runRipgrep } from "./ripgrep.js";
import { walkFiles } from "./walk-files.js";

export interface ListPathsRequest {
  /** The workspace root: ignore files between it and `dir` count too. */
  root: string;
  /** Absolute directory to list. */
  dir: string;
  signal?: AbortSignal;
  /** rg executable instead of `@vscode/ripgrep`'s. */
  rgPath?: string;
}

export interface ListPathsRun {
  engine: "ripgrep" | "node";
  /** True when `onFile` asked to stop. */
  stopped: boolean;
  /** Set when rg failed before listing anything. */
  error?: string;
}

/**
 * Every file below `dir` that `rg --files` would list (ignore files honoured, dependency and build
 * directories skipped), as `/`-separated paths relative to `dir`, in no particular order. Falls
 * back to the built-in walker when rg is unavailable. Return false from `onFile` to stop.
 */
export async function listPaths(
  request: ListPathsRequest,
  onFile: (relPath: string) => boolean,
): Promise<ListPathsRun> {
  let listed = false;
  try {
    const run = await runRipgrep(
      ["--files", ...commonRipgrepArgs()],
      request.dir,
      (line) => {
        listed = true;
        return onFile(line.startsWith("./") ? line.slice(2) : line);
      },
      request.signal,
      request.rgPath,
    );
    if (run.exitCode === 2 && !listed) {
      return { engine: "ripgrep", stopped: false, error: run.stderr || "ripgrep exited with an error." };
    }
    return { engine: "ripgrep", stopped: run.stopped };
  } catch (error) {
    if (!isRipgrepUnavailable(error)) throw error;
  }
  for await (const file of walkFiles({ root: request.root, start: request.dir, signal: request.signal })) {
    if (!onFile(path.relative(request.dir, file).split(path.sep).join("/"))) {
      return { engine: "node", stopped: true };
    }
  }
  return { engine: "node", stopped: false };
}

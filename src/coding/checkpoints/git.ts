import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";
import { childProcess } from "../process/child-process.js";
import { CheckpointGitError } from "./types.js";

/** Where the shadow repository of one workspace lives, and how git is run against it. */
export interface ShadowGit {
  /** The store directory: `<home>/checkpoints/<hash>/`. */
  storeDir: string;
  /** The shadow repository (GIT_DIR), `<storeDir>/git`. */
  gitDir: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
}

export interface GitRunOptions {
  /** Written to git's stdin. */
  input?: string | Buffer;
  /** Exit codes that are answers rather than failures (default only 0). */
  okCodes?: number[];
  /** Run at low CPU priority: work nobody waits for (gc). */
  background?: boolean;
  /** Variables added to the shadow environment (e.g. another `GIT_INDEX_FILE`). */
  env?: NodeJS.ProcessEnv;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Settings every call gets, so nothing in the workspace or the person's configuration can change
 * what the shadow repository does: no hooks, no file-system monitor, no line-ending or filter
 * conversions, no automatic gc in the foreground.
 */
const FIXED_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.quotePath=false",
  "core.logAllRefUpdates=false",
  "core.untrackedCache=true",
  "status.showUntrackedFiles=all",
  "status.relativePaths=false",
  "gc.auto=0",
  "submodule.recurse=false",
  "diff.renames=false",
  "color.ui=false",
  "advice.detachedHead=false",
];

/**
 * A private environment: the shadow GIT_DIR and index, the workspace as work tree, no system or
 * global configuration (HOME points at the store), no prompts, a fixed identity and locale.
 * Nothing else of the caller's environment reaches git, so a GIT_DIR set around Bowline cannot
 * redirect it to the person's repository.
 */
export function shadowEnv(
  storeDir: string,
  workspace: string,
  base: Record<string, string | undefined>,
): NodeJS.ProcessEnv {
  const gitDir = join(storeDir, "git");
  const env: NodeJS.ProcessEnv = {
    PATH: base.PATH ?? "/usr/bin:/bin",
    HOME: storeDir,
    XDG_CONFIG_HOME: storeDir,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workspace,
    GIT_INDEX_FILE: join(gitDir, "index"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_AUTHOR_NAME: "Bowline",
    GIT_AUTHOR_EMAIL: "checkpoints@bowline.invalid",
    GIT_COMMITTER_NAME: "Bowline",
    GIT_COMMITTER_EMAIL: "checkpoints@bowline.invalid",
    LC_ALL: "C",
    LANG: "C",
    // glibc otherwise returns zlib's buffers to the kernel after every object and faults them
    // back in for the next: hashing many files is several times slower without this.
    MALLOC_TRIM_THRESHOLD_: String(256 * 1024 * 1024),
  };
  if (base.TMPDIR) env.TMPDIR = base.TMPDIR;
  if (base.SystemRoot) env.SystemRoot = base.SystemRoot;
  return env;
}

export function createShadowGit(
  storeDir: string,
  workspace: string,
  base: Record<string, string | undefined>,
): ShadowGit {
  return { storeDir, gitDir: join(storeDir, "git"), workspace, env: shadowEnv(storeDir, workspace, base) };
}

/** Starts `git <args>` against the shadow repository, its three streams piped, for a caller that talks to it. */
export function spawnGit(
  git: ShadowGit,
  args: string[],
  env?: NodeJS.ProcessEnv,
): ChildProcessWithoutNullStreams {
  const fullArgs = FIXED_CONFIG.flatMap((setting) => ["-c", setting]);
  fullArgs.push(...args);
  return childProcess().spawn("git", fullArgs, {
    cwd: git.storeDir,
    env: env ? { ...git.env, ...env } : git.env,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
}

/** Runs `git <args>` against the shadow repository without blocking the event loop. */
export function runGit(git: ShadowGit, args: string[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(git, args, options.env);
    if (options.background && child.pid !== undefined) lowerPriority(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(new CheckpointGitError(`Could not run git: ${error.message}`)));
    child.stdin.on("error", () => {
      // git exited before reading all its input; the exit code says what went wrong.
    });
    child.on("close", (code) => {
      const result = {
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        code: code ?? -1,
      };
      if (result.code === 0 || options.okCodes?.includes(result.code)) resolve(result);
      else reject(new CheckpointGitError(describeFailure(args, result)));
    });
    child.stdin.end(options.input ?? "");
  });
}

/**
 * For commands that read the index without needing it (`diff-tree` does, for nothing it uses
 * here): a path where no index exists, so they do not parse the shadow index of the whole
 * workspace. Nothing writes an index there.
 */
export function withoutIndex(git: ShadowGit): NodeJS.ProcessEnv {
  return { GIT_INDEX_FILE: join(git.gitDir, "no-index") };
}

/** Runs git and returns its trimmed standard output. */
export async function gitText(git: ShadowGit, args: string[], options?: GitRunOptions): Promise<string> {
  return (await runGit(git, args, options)).stdout.trim();
}

export function describeFailure(args: string[], result: GitResult): string {
  const detail = result.stderr.trim().split("\n").slice(0, 5).join("\n");
  return `git ${args[0] ?? ""} failed (exit ${result.code}) in the checkpoint store: ${detail || "no message"}`;
}

/** Background work should not slow down the tools that run beside it. */
function lowerPriority(pid: number): void {
  try {
    setPriority(pid, 10);
  } catch {
    // Not permitted on this system: the snapshot runs at normal priority, which is only slower.
  }
}

/** Whether a usable git is on PATH. */
export async function gitAvailable(env: Record<string, string | undefined>): Promise<boolean> {
  return new Promise((resolve) => {
    const child = childProcess().spawn("git", ["--version"], {
      env: { PATH: env.PATH ?? "/usr/bin:/bin" },
      stdio: "ignore",
    });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
}

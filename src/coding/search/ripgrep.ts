/** Directories never worth listing or searching: version control, dependencies, caches, builds. */
export const SKIPPED_DIRECTORIES = [
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "bower_components",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".gradle",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".cache",
  "dist",
  "build",
  "target",
  "coverage",
  "Pods",
];

/**
 * Arguments shared by listing and searching: include dotfiles, honour .gitignore/.ignore files
 * even outside a git repository, never follow symlinks (they may lead out of the workspace), and
 * skip `SKIPPED_DIRECTORIES` below the starting directory.
 */
export function commonRipgrepArgs(): string[] {
  return [
    "--hidden",
    "--no-require-git",
    "--no-config",
    ...SKIPPED_DIRECTORIES.flatMap((dir) => ["--glob", `!${dir}/`]),
  ];
}

export interface RipgrepRun {
  /** rg's exit code: 0 found, 1 nothing found, 2 error; null when stopped early. */
  exitCode: number | null;
  stderr: string;
  /** True when `onLine` asked to stop and rg was killed. */
  stopped: boolean;
}

/**
 * Runs rg in `cwd`, handing each stdout line to `onLine`; returning false from `onLine` stops rg.
 * `binary` overrides the rg executable (default: the one from `@vscode/ripgrep`).
 * Rejects only when rg cannot be started (see `isRipgrepUnavailable`).
 */
export async function runRipgrep(
  args: string[],
  cwd: string,
  onLine: (line: string) => boolean,
  signal?: AbortSignal,
  binary?: string,
): Promise<RipgrepRun> {
  // Loaded on first use, off the start-up path.
  const [{ spawn }, { createInterface }] = await Promise.all([
    import("node:child_process"),
    import("node:readline"),
  ]);
  const executable = binary ?? (await bundledRipgrepPath());
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd, stdio: ["ignore", "pipe", "pipe"], signal });
    let stderr = "";
    let stopped = false;
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => {
      if (stopped || onLine(line)) return;
      stopped = true;
      lines.close();
      child.kill();
    });
    child.on("error", (error) => {
      if (error.name === "AbortError") return;
      reject(error);
    });
    child.on("close", (code) => resolve({ exitCode: stopped ? null : code, stderr: stderr.trim(), stopped }));
  });
}

/** Thrown when `@vscode/ripgrep` (and so its binary) is not installed. */
export class RipgrepMissingError extends Error {
  readonly code = "ripgrep_missing";
  constructor(cause: unknown) {
    super("The @vscode/ripgrep package could not be loaded.", { cause });
    this.name = "RipgrepMissingError";
  }
}

async function bundledRipgrepPath(): Promise<string> {
  try {
    return (await import("@vscode/ripgrep")).rgPath;
  } catch (error) {
    throw new RipgrepMissingError(error);
  }
}

/** True for a `runRipgrep` rejection meaning rg is not there or cannot be executed. */
export function isRipgrepUnavailable(error: unknown): boolean {
  if (error instanceof RipgrepMissingError) return true;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "EACCES" || code === "ENOEXEC" || code === "EPERM";
}

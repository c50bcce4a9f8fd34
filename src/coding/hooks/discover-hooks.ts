import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Finds the hooks of one event. In each directory, in the order given, the entries named exactly
 * like the event or starting with `<event>.` are taken in name order (by UTF-16 code units, so
 * `PreToolUse` < `PreToolUse.10-x` < `PreToolUse.2-y`); a file runs itself, a directory runs its
 * own files (not hidden ones, not sub-directories) in name order.
 * Files ending in `.sample`, `.disabled`, `.md` or `~` are never run; any other matching file that
 * is not executable is reported. A missing directory is fine.
 */
export async function discoverHooks(
  dirs: readonly string[],
  event: string,
): Promise<{ hooks: string[]; problems: string[] }> {
  const hooks: string[] = [];
  const problems: string[] = [];
  for (const dir of dirs) {
    const entries = await listDir(dir, problems);
    const matches = entries
      .map((entry) => entry.name)
      .filter((name) => name === event || name.startsWith(`${event}.`))
      .sort(byCodeUnits);
    for (const name of matches) {
      const full = path.join(dir, name);
      const kind = await kindOf(full, problems);
      if (kind === "dir") {
        const inner = (await listDir(full, problems))
          .map((entry) => entry.name)
          .filter((n) => !n.startsWith("."));
        for (const child of inner.sort(byCodeUnits)) {
          const childPath = path.join(full, child);
          if ((await kindOf(childPath, problems)) === "file") await addIfRunnable(childPath, hooks, problems);
        }
      } else if (kind === "file") {
        await addIfRunnable(full, hooks, problems);
      }
    }
  }
  return { hooks, problems };
}

const IGNORED = /(\.sample|\.disabled|\.md|~)$/;

async function addIfRunnable(file: string, hooks: string[], problems: string[]): Promise<void> {
  if (IGNORED.test(file)) return;
  try {
    await fs.access(file, fs.constants.X_OK);
    hooks.push(file);
  } catch {
    problems.push(
      `${file}: not executable, so it was not run (chmod +x it, or rename it to end in .disabled)`,
    );
  }
}

async function listDir(dir: string, problems: string[]): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push(`${dir}: cannot be listed (${(error as Error).message})`);
    return [];
  }
}

async function kindOf(file: string, problems: string[]): Promise<"file" | "dir" | "other"> {
  try {
    const stats = await fs.stat(file);
    return stats.isDirectory() ? "dir" : stats.isFile() ? "file" : "other";
  } catch (error) {
    problems.push(`${file}: cannot be read (${(error as Error).message})`);
    return "other";
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

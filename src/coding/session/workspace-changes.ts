import { lstat, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { SKIPPED_DIRECTORIES } from "../search/ripgrep.js";

const MAX_FILES = 5000;
const MAX_LISTED = 20;
const GIT_TIMEOUT_MS = 5000;
const SKIPPED = new Set(SKIPPED_DIRECTORIES);

/**
 * What changed in `workspace` since `sinceMs` (epoch ms), told to the model when a task resumes.
 * In a git repository: files of `git status` modified since then, the status itself and the
 * commits made since; otherwise a bounded walk for files modified since then. Never throws: a
 * failure is reported as unknown changes.
 */
export async function workspaceChangesSince(workspace: string, sinceMs: number): Promise<string> {
  const since = new Date(sinceMs).toISOString();
  try {
    const top = await git(workspace, ["rev-parse", "--show-toplevel"]).catch(() => undefined);
    const body =
      top === undefined
        ? await walkChanges(workspace, sinceMs)
        : await gitChanges(workspace, top.trim(), since, sinceMs);
    return `Workspace changes since ${since}:\n${body}`;
  } catch (error) {
    return `Workspace changes since ${since} are unknown (${(error as Error).message}).`;
  }
}

async function gitChanges(workspace: string, top: string, since: string, sinceMs: number): Promise<string> {
  const [status, log] = await Promise.all([
    git(workspace, ["status", "--porcelain=v1", "-z", "--untracked-files=normal", "--", "."]),
    // A repository without commits has no log: no commits since, either.
    git(workspace, ["log", `--since=${since}`, "--format=%h %s", `-n${MAX_LISTED + 1}`, "--", "."]).catch(
      () => "",
    ),
  ]);
  const entries = statusEntries(status);
  const modified: string[] = [];
  for (const entry of entries.slice(0, MAX_FILES)) {
    const abs = join(top, entry.path);
    const stat = await lstat(abs).catch(() => undefined);
    if (stat && stat.mtimeMs > sinceMs) modified.push(relative(workspace, abs) || ".");
  }
  const commits = log.split("\n").filter((line) => line.trim() !== "");
  const lines = [modifiedLine(modified)];
  if (entries.length === 0) {
    lines.push("git status: clean.");
  } else {
    lines.push(`git status --porcelain (${entries.length}):`);
    lines.push(...listed(entries.map((entry) => `${entry.code} ${entry.path}`)).map((line) => `  ${line}`));
  }
  if (commits.length > 0) {
    lines.push(
      `Commits since then${commits.length > MAX_LISTED ? ` (more than ${MAX_LISTED})` : ` (${commits.length})`}:`,
    );
    lines.push(...commits.slice(0, MAX_LISTED).map((line) => `  ${line}`));
  }
  return lines.join("\n");
}

/** `git status --porcelain -z` entries; a rename or copy is followed by its original path, skipped. */
function statusEntries(output: string): Array<{ code: string; path: string }> {
  const fields = output.split("\0");
  const entries: Array<{ code: string; path: string }> = [];
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    entries.push({ code, path: field.slice(3) });
    if (code[0] === "R" || code[0] === "C") index++;
  }
  return entries;
}

/** A breadth-first walk (nearest files first), skipping dependency and build folders, bounded. */
async function walkChanges(workspace: string, sinceMs: number): Promise<string> {
  const modified: Array<{ path: string; mtimeMs: number }> = [];
  const queue = [workspace];
  let checked = 0;
  while (queue.length > 0 && checked < MAX_FILES) {
    const dir = queue.shift()!;
    // The workspace itself must be readable; a subfolder that is not is left out.
    const entries =
      dir === workspace
        ? await readdir(dir, { withFileTypes: true })
        : await readdir(dir, { withFileTypes: true }).catch(() => []);
    const files: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) queue.push(join(dir, entry.name));
      } else if (checked + files.length < MAX_FILES) {
        files.push(join(dir, entry.name));
      }
    }
    checked += files.length;
    const stats = await Promise.all(files.map((file) => lstat(file).catch(() => undefined)));
    stats.forEach((stat, index) => {
      if (stat && stat.mtimeMs > sinceMs)
        modified.push({ path: relative(workspace, files[index]!), mtimeMs: stat.mtimeMs });
    });
  }
  modified.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const lines = [
    modifiedLine(modified.map((file) => file.path)),
    `(Not a git repository; ${checked} files checked.)`,
  ];
  if (checked >= MAX_FILES) lines.push(`Stopped after ${MAX_FILES} files: there may be more changes.`);
  return lines.join("\n");
}

function modifiedLine(paths: string[]): string {
  if (paths.length === 0) return "No file was modified since then.";
  return `Files modified since then (${paths.length}): ${listed(paths).join(", ")}`;
}

function listed(items: string[]): string[] {
  const shown = items.slice(0, MAX_LISTED);
  return items.length > shown.length ? [...shown, `... and ${items.length - shown.length} more`] : shown;
}

async function git(cwd: string, args: string[]): Promise<string> {
  const [{ execFile }, { promisify }] = await Promise.all([
    import("node:child_process"),
    import("node:util"),
  ]);
  const { stdout } = await promisify(execFile)("git", args, {
    cwd,
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
    // A status must not take the index lock (the person's own git may be running).
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
  });
  return stdout;
}

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type CheckpointStoreOptions,
  type CheckpointsUnavailable,
  isUnavailable,
  openCheckpoints,
  type SaveOutcome,
  type TaskCheckpoints,
} from "../../../src/coding/checkpoints/index.js";

/** A temporary Bowline home and workspace, side by side. */
export interface Sandbox {
  root: string;
  home: string;
  ws: string;
  write(files: Record<string, string | Buffer>): void;
  read(path: string): string;
  exists(path: string): boolean;
  /** Waits for the background work of every task opened with `openTask`, closes them, deletes it all. */
  remove(): Promise<void>;
  /** Tasks opened with `openTask`. */
  tasks: TaskCheckpoints[];
}

export function createSandbox(files: Record<string, string | Buffer> = {}): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bowline-checkpoints-")));
  const home = join(root, "home");
  const ws = join(root, "ws");
  mkdirSync(home);
  mkdirSync(ws);
  const sandbox: Sandbox = {
    root,
    home,
    ws,
    write(entries) {
      for (const [path, content] of Object.entries(entries)) {
        mkdirSync(dirname(join(ws, path)), { recursive: true });
        writeFileSync(join(ws, path), content);
      }
    },
    read: (path) => readFileSync(join(ws, path), "utf8"),
    exists: (path) => existsSync(join(ws, path)),
    tasks: [],
    async remove() {
      await Promise.all(sandbox.tasks.map((task) => task.settled()));
      for (const task of sandbox.tasks) task.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  sandbox.write(files);
  return sandbox;
}

/** Opens a task's checkpoints, failing the test when they are unavailable. */
export async function openTask(
  sandbox: Sandbox,
  taskId: string,
  options: Partial<CheckpointStoreOptions> = {},
): Promise<TaskCheckpoints> {
  const handle = await openCheckpoints({ home: sandbox.home, workspace: sandbox.ws, taskId, ...options });
  if (isUnavailable(handle)) throw new Error(handle.message);
  sandbox.tasks.push(handle);
  return handle;
}

/** The saved outcome, failing the test when checkpoints were unavailable. */
export function saved(outcome: SaveOutcome | CheckpointsUnavailable): SaveOutcome {
  if (isUnavailable(outcome)) throw new Error(outcome.message);
  return outcome;
}

/** Runs the person's own git (a clean configuration) in `cwd`. */
export function userGit(cwd: string, args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "Person",
      GIT_AUTHOR_EMAIL: "person@example.invalid",
      GIT_COMMITTER_NAME: "Person",
      GIT_COMMITTER_EMAIL: "person@example.invalid",
    },
  });
}

/** Makes `dir` a git repository with everything in it committed. */
export function userRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  userGit(dir, ["init", "-q", "-b", "main"]);
  userGit(dir, ["add", "-A"]);
  userGit(dir, ["commit", "-q", "--allow-empty", "-m", "initial"]);
}

/** Every file and link under `dir` (dot folders included) with a hash of its content and mode. */
export function fingerprint(dir: string): Record<string, string> {
  const prints: Record<string, string> = {};
  const walk = (path: string, rel: string) => {
    const info = lstatSync(path);
    if (info.isDirectory()) {
      prints[`${rel}/`] = `dir ${info.mode}`;
      for (const name of readdirSync(path)) walk(join(path, name), rel ? `${rel}/${name}` : name);
    } else if (info.isSymbolicLink()) {
      prints[rel] = `link ${readlinkSync(path)}`;
    } else {
      const hash = createHash("sha256").update(readFileSync(path)).digest("hex");
      prints[rel] = `${info.mode} ${info.mtimeMs} ${hash}`;
    }
  };
  walk(dir, "");
  return prints;
}

/** The paths a checkpoint's `files` names. */
export function paths(outcome: SaveOutcome): string[] {
  return outcome.checkpoint.files.map((file) => file.path);
}

/** The value, failing the test when checkpoints were unavailable. */
export function available<T>(value: T | CheckpointsUnavailable): T {
  if (isUnavailable(value)) throw new Error(value.message);
  return value;
}

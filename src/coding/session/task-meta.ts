import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tasksDir } from "./paths.js";
import { SessionLoadError } from "./session-error.js";

export const TASK_META_FILE = "task.json";

/** `task.json`: what a task is about, written once when it starts. */
export interface TaskMeta {
  v: 1;
  id: string;
  /** The workspace root (absolute, symlink-free). */
  workspace: string;
  /** The person's first message. */
  task: string;
  provider: string;
  model: string;
  /** ISO 8601. */
  createdAt: string;
}

/** Task ids name folders: one plain name, never a path. */
export function isSafeTaskId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && !id.includes("..");
}

/** The folder of task `id`; throws `invalid_task_id` for an id that is not a plain name. */
export function taskDirOf(home: string, id: string): string {
  if (!isSafeTaskId(id)) {
    throw new SessionLoadError(
      "invalid_task_id",
      `Not a task id: "${id}" (a task id is a plain folder name).`,
    );
  }
  return join(tasksDir(home), id);
}

/** Reads and checks a task's `task.json`. Throws `SessionLoadError` (`corrupt_journal`). */
export function readTaskMeta(taskDir: string): TaskMeta {
  const path = join(taskDir, TASK_META_FILE);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new SessionLoadError("corrupt_journal", `Cannot read ${path}: ${(error as Error).message}`);
  }
  const meta = value as Partial<TaskMeta> | null;
  const fields = ["id", "workspace", "task", "createdAt"] as const;
  const missing = fields.filter((field) => typeof meta?.[field] !== "string");
  if (missing.length > 0) {
    throw new SessionLoadError("corrupt_journal", `${path} lacks ${missing.join(", ")}.`);
  }
  return value as TaskMeta;
}

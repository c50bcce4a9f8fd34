import {
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { API_HISTORY_FILE, UI_MESSAGES_FILE } from "./file-journal.js";
import { lastRecordTs, readFirstRecord, readJsonl } from "./journal-reader.js";
import { toUiRecords } from "./migrate.js";
import { tasksDir } from "./paths.js";
import { SessionLoadError } from "./session-error.js";
import { readTaskMeta, TASK_META_FILE, taskDirOf } from "./task-meta.js";
import {
  countTurns,
  latestUiMessages,
  type TaskListStatus,
  taskStatus,
  totalTokens,
  usageTotals,
} from "./ui-history.js";

export const INDEX_FILE = "index.json";
const INDEX_VERSION = 1;
const TITLE_LENGTH = 72;

/** One line of the history: what a person needs to pick a task again. */
export interface TaskSummary {
  id: string;
  /** The first line of the task, shortened. */
  title: string;
  workspace: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the last record of either journal file. */
  updatedAt: string;
  turns: number;
  /** Input (incl. cached) and output tokens of the task's own requests. */
  tokens: number;
  costUsd?: number;
  /** `broken`: the task cannot be read (`problem` says why); absent when nothing tells. */
  status?: TaskListStatus | "broken";
  problem?: string;
  /** The task this one was forked from. */
  forkedFrom?: string;
}

/** A cached summary and the state of the files it was made from. */
type CachedSummary = TaskSummary & { stamp: string };
type IndexFile = { v: typeof INDEX_VERSION; tasks: CachedSummary[] };

/**
 * The tasks under `home`, newest first (only those of `workspace` when given). `tasks/index.json`
 * is a cache: a task whose files changed since it was cached (modification time or size), or
 * that is missing from it, is summarised again from its folder; a missing or corrupt cache is
 * rebuilt. A task that cannot be read is listed with status `broken`.
 */
export function listTasks(home: string, options: { workspace?: string } = {}): TaskSummary[] {
  const root = tasksDir(home);
  if (!existsSync(root)) return [];
  const cached = new Map(readIndex(root).map((summary) => [summary.id, summary]));
  const fresh: CachedSummary[] = [];
  let changed = false;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(root, entry.name);
    const stamp = stampOf(dir);
    const previous = cached.get(entry.name);
    if (previous?.stamp === stamp) {
      fresh.push(previous);
    } else if (stamp !== NOT_STARTED) {
      fresh.push({ ...summarizeTask(dir, entry.name), stamp });
      changed = true;
    }
  }
  if (changed || fresh.length !== cached.size) writeIndex(root, fresh);
  const workspace = options.workspace === undefined ? undefined : canonicalPath(options.workspace);
  return fresh
    .filter((summary) => workspace === undefined || canonicalPath(summary.workspace) === workspace)
    .map(({ stamp: _stamp, ...summary }) => summary)
    .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id.localeCompare(a.id));
}

/** The most recent readable task of `workspace` (`--continue`). */
export function lastTask(home: string, workspace: string): TaskSummary | undefined {
  return listTasks(home, { workspace }).find((summary) => summary.status !== "broken");
}

/**
 * Removes task `id`'s folder. Throws `SessionLoadError`: `invalid_task_id` (not a plain name),
 * `task_not_found`, `has_forks` (other tasks continue from it: delete them first).
 */
export function deleteTask(home: string, id: string): void {
  const dir = taskDirOf(home, id);
  if (!existsSync(dir)) throw new SessionLoadError("task_not_found", `No task ${id} in ${tasksDir(home)}.`);
  const forks = listTasks(home).filter((summary) => summary.forkedFrom === id);
  if (forks.length > 0) {
    throw new SessionLoadError(
      "has_forks",
      `Task ${id} cannot be deleted: ${forks.map((fork) => fork.id).join(", ")} continue from it; delete them first.`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
}

/** The first line of a task, on one line and at most TITLE_LENGTH characters. */
export function taskTitle(task: string): string {
  const line = (task.split("\n").find((text) => text.trim() !== "") ?? "").trim().replace(/\s+/g, " ");
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/** A summary from the task's own files: task.json, the UI messages, the API file's first and last records. */
function summarizeTask(dir: string, id: string): TaskSummary {
  try {
    const meta = readTaskMeta(dir);
    const uiPath = join(dir, UI_MESSAGES_FILE);
    const uiRecords = toUiRecords(uiPath, readJsonl(uiPath).records);
    const ui = latestUiMessages(uiRecords);
    const apiPath = join(dir, API_HISTORY_FILE);
    const updated = Math.max(uiRecords.at(-1)?.ts ?? 0, lastRecordTs(apiPath) ?? 0);
    const usage = usageTotals(ui);
    const first = readFirstRecord(apiPath) as { type?: unknown; fromTask?: unknown } | undefined;
    const status = taskStatus(ui);
    return {
      id,
      title: taskTitle(meta.task),
      workspace: meta.workspace,
      createdAt: meta.createdAt,
      updatedAt: updated > 0 ? new Date(updated).toISOString() : meta.createdAt,
      turns: countTurns(ui),
      tokens: totalTokens(usage),
      ...(usage.costUsd !== undefined ? { costUsd: usage.costUsd } : {}),
      ...(status ? { status } : {}),
      ...(first?.type === "fork" && typeof first.fromTask === "string" ? { forkedFrom: first.fromTask } : {}),
    };
  } catch (error) {
    const createdAt = new Date(statSync(dir).mtimeMs).toISOString();
    return {
      id,
      title: "(unreadable task)",
      workspace: "",
      createdAt,
      updatedAt: createdAt,
      turns: 0,
      tokens: 0,
      status: "broken",
      problem: (error as Error).message,
    };
  }
}

/** The stamp of a folder with no task.json and nothing journaled: a session that never started a task. */
const NOT_STARTED = "not started";

/** Modification time and size of each of the task's files: any append changes it. */
function stampOf(dir: string): string {
  const stats = [TASK_META_FILE, API_HISTORY_FILE, UI_MESSAGES_FILE].map((name) =>
    statSync(join(dir, name), { throwIfNoEntry: false }),
  );
  if (!stats[0] && !stats.some((stat) => stat && stat.size > 0)) return NOT_STARTED;
  return stats.map((stat) => (stat ? `${stat.mtimeMs}:${stat.size}` : "-")).join("/");
}

function readIndex(root: string): CachedSummary[] {
  try {
    const index = JSON.parse(readFileSync(join(root, INDEX_FILE), "utf8")) as Partial<IndexFile>;
    if (index.v !== INDEX_VERSION || !Array.isArray(index.tasks)) return [];
    return index.tasks.filter(
      (task) =>
        typeof task?.id === "string" &&
        typeof task.stamp === "string" &&
        typeof task.workspace === "string" &&
        typeof task.updatedAt === "string",
    );
  } catch {
    return []; // missing or corrupt: the cache is rebuilt from the task folders
  }
}

/** Temp file, then rename: a reader never sees half an index. */
function writeIndex(root: string, tasks: CachedSummary[]): void {
  const path = join(root, INDEX_FILE);
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  const index: IndexFile = { v: INDEX_VERSION, tasks };
  try {
    writeFileSync(temp, `${JSON.stringify(index)}\n`, { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // Only a cache: a listing is right without it, and the next one tries again.
    rmSync(temp, { force: true });
  }
}

function canonicalPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path); // a workspace that no longer exists keeps its recorded path
  }
}

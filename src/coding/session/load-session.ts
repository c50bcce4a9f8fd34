import { existsSync } from "node:fs";
import { join } from "node:path";
import type {
  ApiForkRecord,
  ApiJournalRecord,
  ApiMessageRecord,
  ApiModelRecord,
  UiJournalRecord,
} from "../../agent/journal.js";
import type { LlmMessage } from "../../llm/types.js";
import type { UiMessage, Usage } from "../../protocol/index.js";
import { API_HISTORY_FILE, UI_MESSAGES_FILE } from "./file-journal.js";
import { type JsonlContent, readJsonl } from "./journal-reader.js";
import { entryNumber, toApiRecords, toUiRecords } from "./migrate.js";
import { SessionLoadError } from "./session-error.js";
import { readTaskMeta, type TaskMeta, taskDirOf } from "./task-meta.js";
import { countTurns, latestUiMessages, uiCountsAt, usageTotals } from "./ui-history.js";

/** An entry of the active history, with the task whose file holds it (a fork's older entries are its source's). */
export type SessionEntry = ApiMessageRecord & { taskId: string };

/** Tool calls of the last assistant message that have no result: they were running when the process stopped. */
export interface InterruptedCalls {
  callIds: string[];
  names: string[];
}

/** A stored task, read back to be shown, exported or continued. */
export interface LoadedSession {
  meta: TaskMeta;
  taskDir: string;
  /** The active API history: resolved through compaction, rewinds and forks. */
  history: LlmMessage[];
  /** The records of `history`, in order. */
  entries: SessionEntry[];
  /**
   * The `parent` of the next entry this task appends: the last active entry when it is in this
   * task's own file, else null (a fork's first own entry; its fork record says where it starts).
   */
  nextParent: string | null;
  /** 1 + the highest `e<n>` used in this task's own file: the next entry is `e<nextEntryNumber>`. */
  nextEntryNumber: number;
  /** Each UI message in its latest state, in order; a fork's inherited part is cut at the fork point. */
  ui: UiMessage[];
  interrupted: InterruptedCalls;
  /** Epoch ms of the last record in either of the task's files (`createdAt` when both are empty). */
  lastActivity: number;
  /** What this task's own model requests used (a fork's inherited requests were its source's). */
  usage: Usage;
  /** Model turns of this task's own (retries of a request count once). */
  turns: number;
  /** Set for a fork: where its history starts. */
  forkedFrom?: { taskId: string; entryId: string };
  /** Recovered damage, e.g. a torn last line that was dropped. */
  warnings: string[];
  /** The model the task last switched to (`/model`); absent when it kept the one it started with. */
  model?: { provider: string; model: string };
}

/** One task's own files, parsed. */
interface TaskFiles {
  id: string;
  dir: string;
  meta: TaskMeta;
  uiRecords: UiJournalRecord[];
  byId: Map<string, ApiMessageRecord>;
  fork?: ApiForkRecord;
  /** The last model switch. */
  model?: ApiModelRecord;
  /** The entry the active history ends at (null: empty, or the fork point). */
  head: string | null;
  nextEntryNumber: number;
  lastTs: number;
  warnings: string[];
}

/**
 * Reads task `taskId` under `home`, resolving its active history and UI messages (and those of
 * the tasks it was forked from). Throws `SessionLoadError`: `task_not_found`, `invalid_task_id`,
 * `corrupt_journal` (a damaged line that is not the last of its file), `unsupported_version`,
 * `broken_chain`. A torn last line is dropped and reported in `warnings`.
 */
export function loadSession(home: string, taskId: string): LoadedSession {
  const tasks = new Map<string, TaskFiles>();
  const own = readTask(home, taskId, tasks);
  const entries = activeChain(home, own, own.head, tasks, []);
  const history = entries.map((entry) => entry.message);
  const ownUi = latestUiMessages(own.uiRecords);
  const last = entries.at(-1);
  return {
    meta: own.meta,
    taskDir: own.dir,
    history,
    entries,
    nextParent: last?.taskId === own.id ? last.id : null,
    nextEntryNumber: own.nextEntryNumber,
    ui: resolvedUi(home, own, tasks, []),
    interrupted: interruptedCalls(history),
    lastActivity: own.lastTs || Date.parse(own.meta.createdAt) || 0,
    usage: usageTotals(ownUi),
    turns: countTurns(ownUi),
    ...(own.fork ? { forkedFrom: { taskId: own.fork.fromTask, entryId: own.fork.fromEntry } } : {}),
    ...(own.model ? { model: { provider: own.model.provider, model: own.model.model } } : {}),
    warnings: [...tasks.values()].flatMap((task) =>
      task === own ? task.warnings : task.warnings.map((warning) => `source task ${task.id}: ${warning}`),
    ),
  };
}

function readTask(home: string, id: string, cache: Map<string, TaskFiles>): TaskFiles {
  const cached = cache.get(id);
  if (cached) return cached;
  const dir = taskDirOf(home, id);
  if (!existsSync(dir))
    throw new SessionLoadError("task_not_found", `No task ${id} in ${join(home, "tasks")}.`);
  const meta = readTaskMeta(dir);
  const apiPath = join(dir, API_HISTORY_FILE);
  const uiPath = join(dir, UI_MESSAGES_FILE);
  const apiFile = readJsonl(apiPath);
  const uiFile = readJsonl(uiPath);
  const api = toApiRecords(apiPath, apiFile.records);
  const uiRecords = toUiRecords(uiPath, uiFile.records);
  const warnings = [tornWarning(apiPath, apiFile), tornWarning(uiPath, uiFile)].filter(
    (warning) => warning !== undefined,
  );
  const task: TaskFiles = {
    id,
    dir,
    meta,
    uiRecords,
    ...indexEntries(apiPath, api, uiRecords),
    lastTs: Math.max(api.at(-1)?.ts ?? 0, uiRecords.at(-1)?.ts ?? 0),
    warnings,
  };
  cache.set(id, task);
  return task;
}

function tornWarning(path: string, file: JsonlContent): string | undefined {
  return file.tornLine
    ? `${path}: dropped a torn last line (line ${file.tornLine}), left by a crash`
    : undefined;
}

/** Indexes the message entries by id and finds the head; fills in the UI counts of migrated entries. */
function indexEntries(path: string, api: ApiJournalRecord[], uiRecords: UiJournalRecord[]) {
  const byId = new Map<string, ApiMessageRecord>();
  const uncounted: ApiMessageRecord[] = [];
  let head: string | null = null;
  let highest = 0;
  let fork: ApiForkRecord | undefined;
  let model: ApiModelRecord | undefined;
  api.forEach((record, index) => {
    if (record.type === "fork") {
      if (index !== 0)
        throw new SessionLoadError("corrupt_journal", `${path}: a fork record that is not the first.`);
      fork = record;
    } else if (record.type === "rewind") {
      if (record.to !== null && !byId.has(record.to)) throw brokenLink(path, "a rewind", record.to);
      head = record.to;
    } else if (record.type === "model") {
      model = record;
    } else {
      byId.set(record.id, record);
      if (record.uiCount < 0) uncounted.push(record);
      highest = Math.max(highest, entryNumber(record.id));
      head = record.id;
    }
  });
  const counts = uiCountsAt(
    uiRecords,
    uncounted.map((record) => record.ts),
  );
  uncounted.forEach((record, index) => {
    record.uiCount = counts[index]!;
  });
  return { byId, head, fork, model, nextEntryNumber: highest + 1 };
}

/**
 * The active chain ending at `from` in `task`: walks parents back to a compaction entry
 * (inclusive) or a null parent, which in a fork continues in the source task at the fork point.
 */
function activeChain(
  home: string,
  task: TaskFiles,
  from: string | null,
  tasks: Map<string, TaskFiles>,
  visiting: string[],
): SessionEntry[] {
  const chain: SessionEntry[] = [];
  let id = from;
  while (id !== null) {
    const record = task.byId.get(id);
    if (!record) throw brokenLink(join(task.dir, API_HISTORY_FILE), "an entry", id);
    chain.push({ ...record, taskId: task.id });
    if (record.compaction) return chain.reverse();
    if (chain.length > task.byId.size) {
      throw new SessionLoadError(
        "broken_chain",
        `${join(task.dir, API_HISTORY_FILE)}: the entries form a cycle.`,
      );
    }
    id = record.parent;
  }
  chain.reverse();
  if (!task.fork) return chain;
  const source = forkSource(home, task, tasks, visiting);
  return [...activeChain(home, source, task.fork.fromEntry, tasks, [...visiting, task.id]), ...chain];
}

/** The UI history of `task`: its source's (cut at the fork point) followed by its own. */
function resolvedUi(
  home: string,
  task: TaskFiles,
  tasks: Map<string, TaskFiles>,
  visiting: string[],
): UiMessage[] {
  if (!task.fork) return latestUiMessages(task.uiRecords);
  const source = forkSource(home, task, tasks, visiting);
  const sourceUi = resolvedUi(home, source, tasks, [...visiting, task.id]);
  const cut = source.byId.get(task.fork.fromEntry)?.uiCount ?? sourceUi.length;
  return latestUiMessages(task.uiRecords, sourceUi.slice(0, cut));
}

function forkSource(home: string, task: TaskFiles, tasks: Map<string, TaskFiles>, visiting: string[]) {
  const fork = task.fork!;
  if (visiting.includes(fork.fromTask) || fork.fromTask === task.id) {
    throw new SessionLoadError(
      "broken_chain",
      `Task ${task.id} is forked from itself (through ${fork.fromTask}).`,
    );
  }
  let source: TaskFiles;
  try {
    source = readTask(home, fork.fromTask, tasks);
  } catch (error) {
    if (!(error instanceof SessionLoadError) || error.code !== "task_not_found") throw error;
    throw new SessionLoadError(
      "broken_chain",
      `Task ${task.id} was forked from task ${fork.fromTask}, which no longer exists.`,
    );
  }
  if (!source.byId.has(fork.fromEntry)) {
    throw brokenLink(
      join(task.dir, API_HISTORY_FILE),
      `the fork (from task ${fork.fromTask})`,
      fork.fromEntry,
    );
  }
  return source;
}

function brokenLink(path: string, what: string, id: string): SessionLoadError {
  return new SessionLoadError(
    "broken_chain",
    `${path}: ${what} points at entry ${id}, which does not exist.`,
  );
}

/** Tool calls of the last assistant message without a result in a later message. */
export function interruptedCalls(history: readonly LlmMessage[]): InterruptedCalls {
  const callIds: string[] = [];
  const names: string[] = [];
  let index = history.length - 1;
  while (index >= 0 && history[index]!.role !== "assistant") index--;
  if (index < 0) return { callIds, names };
  const answered = new Set<string>();
  for (const message of history.slice(index + 1)) {
    for (const block of message.content) if (block.type === "tool_result") answered.add(block.callId);
  }
  for (const block of history[index]!.content) {
    if (block.type === "tool_call" && !answered.has(block.id)) {
      callIds.push(block.id);
      names.push(block.name);
    }
  }
  return { callIds, names };
}

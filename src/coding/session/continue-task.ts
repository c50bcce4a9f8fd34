/** Continuing a stored task, or forking one into a new task. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiForkRecord } from "../../agent/journal.js";
import { type LoadedSession, loadSession } from "./load-session.js";
import { newTaskId, tasksDir } from "./paths.js";
import { SessionLoadError } from "./session-error.js";
import { workspaceChangesSince } from "./workspace-changes.js";

/** Continue a stored task (its id), or fork one from an entry (default: its last) into a new task. */
export type ContinueFrom = { taskId: string } | { forkOf: string; atEntry?: string };

/** The stored task a session continues; a fork is a new task whose journal starts with a fork record. */
export function openStoredTask(home: string, from: ContinueFrom) {
  if ("taskId" in from) return { taskId: from.taskId, meta: loadSession(home, from.taskId).meta };
  const source = loadSession(home, from.forkOf);
  const entry = from.atEntry ?? source.entries.at(-1)?.id;
  if (!entry || !source.entries.some((e) => e.id === entry && e.taskId === from.forkOf)) {
    throw new SessionLoadError(
      "broken_chain",
      `Task ${from.forkOf} has no entry ${entry ?? "(empty)"} to fork from.`,
    );
  }
  const taskId = newTaskId();
  const taskDir = join(tasksDir(home), taskId);
  mkdirSync(taskDir, { recursive: true, mode: 0o700 });
  const meta = { ...source.meta, id: taskId, createdAt: new Date().toISOString(), forkOf: from.forkOf };
  writeFileSync(join(taskDir, "task.json"), `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o600 });
  const forkRecord: ApiForkRecord = {
    v: 2,
    type: "fork",
    ts: Date.now(),
    fromTask: from.forkOf,
    fromEntry: entry,
  };
  return { taskId, meta, forkRecord };
}

/** What the model is told when a stored task goes on: how long it was away and what changed. */
export async function resumeNote(loaded: LoadedSession, workspaceRoot: string): Promise<string> {
  const minutes = Math.max(0, Math.round((Date.now() - loaded.lastActivity) / 60_000));
  const away =
    minutes < 1
      ? "less than a minute"
      : minutes < 120
        ? `${minutes} minutes`
        : `${Math.round(minutes / 60)} hours`;
  const changes = await workspaceChangesSince(workspaceRoot, loaded.lastActivity);
  return `[The task was resumed after ${away}. ${changes}]`;
}

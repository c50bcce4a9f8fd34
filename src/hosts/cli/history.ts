/** `bowline history`: list, delete and export stored tasks. */

import { chmodSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type ExportFormat, exportTask } from "../../coding/session/export.js";
import { deleteTask, listTasks, type TaskSummary } from "../../coding/session/history-index.js";
import { bowlineHome } from "../../coding/session/paths.js";
import { SessionLoadError } from "../../coding/session/session-error.js";
import type { Env } from "../../llm/config.js";
import { formatCost, formatTokens } from "../../protocol/index.js";

export const HISTORY_HELP = `Usage:
  bowline history [--all] [--json]      tasks of this workspace, newest first (--all: every workspace)
  bowline history delete <id>           delete a task and its journal
  bowline history export <id> [--format markdown|json] [--output <file>]
                                        a transcript (markdown, default) or the stored task (json),
                                        on stdout or into a private file`;

/** Where the command writes; each call is one line (or block) of output. */
export interface HistoryIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: HistoryIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

class HistoryUsageError extends Error {}

/**
 * Runs `bowline history ...` (`argv`: the arguments after `history`). Returns the exit code:
 * 0 done, 1 the task could not be found, read or deleted, 2 bad arguments.
 */
export async function runHistoryCommand(
  argv: string[],
  cwd: string,
  env: Env,
  io: HistoryIo = processIo,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        all: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        format: { type: "string" },
        output: { type: "string", short: "o" },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(HISTORY_HELP);
      return 0;
    }
    const home = bowlineHome(env);
    const [action, id, ...extra] = positionals;
    if (extra.length > 0) throw new HistoryUsageError(`unexpected argument: ${extra[0]}`);
    const exportOnly = values.format !== undefined || values.output !== undefined;
    if (action === undefined || action === "list") {
      if (exportOnly || id !== undefined) throw new HistoryUsageError("--format and --output go with export");
      listCommand(home, cwd, values.all, values.json, io);
      return 0;
    }
    if (values.all || values.json) throw new HistoryUsageError("--all and --json go with the listing");
    if (id === undefined) throw new HistoryUsageError(`${action} needs a task id`);
    if (action === "delete") {
      if (exportOnly) throw new HistoryUsageError("--format and --output go with export");
      deleteTask(home, id);
      io.out(`Deleted task ${id}.`);
      return 0;
    }
    if (action === "export") {
      exportCommand(home, id, cwd, values.format ?? "markdown", values.output, io);
      return 0;
    }
    throw new HistoryUsageError(`unknown history command: ${action}`);
  } catch (error) {
    if (
      error instanceof HistoryUsageError ||
      (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      io.err(`bowline history: ${(error as Error).message}\n${HISTORY_HELP}`);
      return 2;
    }
    if (error instanceof SessionLoadError) {
      io.err(`bowline: ${error.message}`);
      return 1;
    }
    io.err(`bowline: ${(error as Error).message}`);
    return 1;
  }
}

function listCommand(home: string, cwd: string, all: boolean, json: boolean, io: HistoryIo): void {
  const tasks = listTasks(home, all ? {} : { workspace: cwd });
  if (json) {
    io.out(JSON.stringify(tasks, null, 2));
  } else if (tasks.length === 0) {
    io.out(
      all ? "No tasks yet." : "No tasks in this workspace yet (bowline history --all lists every workspace).",
    );
  } else {
    io.out(historyTable(tasks, all));
  }
}

/** Aligned columns: id, updated, turns, tokens, cost, status, (workspace,) title. */
export function historyTable(tasks: readonly TaskSummary[], withWorkspace: boolean): string {
  const header = [
    "ID",
    "UPDATED",
    "TURNS",
    "TOKENS",
    "COST",
    "STATUS",
    ...(withWorkspace ? ["WORKSPACE"] : []),
    "TITLE",
  ];
  const rows = tasks.map((task) => [
    task.id,
    localTime(task.updatedAt),
    String(task.turns),
    formatTokens(task.tokens),
    task.costUsd === undefined ? "-" : formatCost(task.costUsd),
    task.status ?? "-",
    ...(withWorkspace ? [task.workspace] : []),
    task.title,
  ]);
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function exportCommand(
  home: string,
  id: string,
  cwd: string,
  format: string,
  output: string | undefined,
  io: HistoryIo,
): void {
  if (format !== "markdown" && format !== "json") {
    throw new HistoryUsageError(`--format is markdown or json, not ${format}`);
  }
  const text = exportTask(home, id, format as ExportFormat);
  if (output === undefined) {
    io.out(text.replace(/\n$/, ""));
    return;
  }
  const path = resolve(cwd, output);
  // The transcript may hold code and secrets the task saw: private, like the journal.
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  io.out(`Exported task ${id} to ${path}.`);
}

/** `2025-01-31 14:05` in local time. */
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "-";
  const two = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

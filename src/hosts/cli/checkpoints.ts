/**
 * `bowline checkpoints`: the checkpoints of the workspace (the current directory).
 *
 *   bowline checkpoints [list] [--task ID] [--json]   oldest first, with the store's size
 *   bowline checkpoints diff A [B] [--json]           A against B, or against the files as they are
 *   bowline checkpoints restore ID --mode files|task|both [--force]
 *
 * A restore that would overwrite files changed outside the task asks first on a terminal, and is
 * refused otherwise unless `--force`.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import {
  type CheckpointStore,
  formatBytes,
  isUnavailable,
  openCheckpointStore,
  type RestoreOutcome,
  type TaskRewinder,
} from "../../coding/checkpoints/index.js";
import { bowlineHome } from "../../coding/session/paths.js";
import type {
  Checkpoint,
  CheckpointDiff,
  FileChange,
  RestoreMode,
} from "../../protocol/checkpoint-commands.js";

export interface CheckpointsCommandOptions {
  /** Rewinds a task's conversation; without one, `--mode task|both` is refused. */
  rewinder?: TaskRewinder;
  out?(text: string): void;
  err?(text: string): void;
  /**
   * Asks a yes/no question (false unless answered yes). Default: on a terminal, a prompt on
   * stdin/stderr; otherwise there is no one to ask and a restore with conflicts is refused.
   */
  confirm?(question: string): Promise<boolean>;
}

const USAGE = `Usage:
  bowline checkpoints [list] [--task ID] [--json]
  bowline checkpoints diff A [B] [--json]
  bowline checkpoints restore ID --mode files|task|both [--force]`;

class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/**
 * Runs `bowline checkpoints <argv...>` (argv is what follows `checkpoints`) in `cwd`. Exit codes:
 * 0 done, 1 refused by the state of things (unknown checkpoint, files changed outside the task),
 * 2 usage errors and checkpoints unavailable here.
 */
export async function runCheckpointsCommand(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  options: CheckpointsCommandOptions = {},
): Promise<number> {
  const out = options.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  const err = options.err ?? ((text: string) => process.stderr.write(`${text}\n`));
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        task: { type: "string" },
        json: { type: "boolean", default: false },
        mode: { type: "string" },
        force: { type: "boolean", default: false },
      },
    });
    const [action = "list", ...rest] = positionals;
    const needsStore = async () => {
      const store = await openCheckpointStore({ home: bowlineHome(env), workspace: cwd, create: false, env });
      if (isUnavailable(store)) throw new CommandError(store.message, 2);
      return store;
    };
    if (action === "list") {
      if (rest.length > 0) throw new CommandError(`list takes no arguments.\n${USAGE}`, 2);
      const store = await openCheckpointStore({ home: bowlineHome(env), workspace: cwd, create: false, env });
      if (isUnavailable(store) && store.reason !== "no_store") throw new CommandError(store.message, 2);
      const checkpoints = isUnavailable(store) ? [] : await store.list({ taskId: values.task });
      if (values.json) out(JSON.stringify(checkpoints));
      else out(isUnavailable(store) ? store.message : await formatList(store, checkpoints));
      return 0;
    }
    if (action === "diff") {
      if (rest.length < 1 || rest.length > 2)
        throw new CommandError(`diff takes one or two ids.\n${USAGE}`, 2);
      const diff = await (await needsStore()).diff(rest[0]!, rest[1]);
      if (isUnavailable(diff)) throw new CommandError(diff.message, 2);
      out(values.json ? JSON.stringify(diff) : formatDiff(diff));
      return 0;
    }
    if (action === "restore") {
      const mode = values.mode;
      if (rest.length !== 1 || (mode !== "files" && mode !== "task" && mode !== "both")) {
        throw new CommandError(`restore takes one id and --mode files, task or both.\n${USAGE}`, 2);
      }
      const confirm = values.force ? undefined : (options.confirm ?? terminalConfirm());
      const store = await needsStore();
      return await restore(store, rest[0]!, { mode, force: values.force, confirm }, options.rewinder, out);
    }
    throw new CommandError(`Unknown checkpoints command "${action}".\n${USAGE}`, 2);
  } catch (error) {
    err(`bowline: ${(error as Error).message}`);
    if (error instanceof CommandError) return error.exitCode;
    return (error as { code?: string }).code === "checkpoint_not_found" ? 1 : 2;
  }
}

interface RestoreChoice {
  mode: RestoreMode;
  force: boolean;
  /** Asks whether to overwrite files changed outside the task; absent: no one to ask. */
  confirm: ((question: string) => Promise<boolean>) | undefined;
}

async function restore(
  store: CheckpointStore,
  id: string,
  { mode, force, confirm }: RestoreChoice,
  rewinder: TaskRewinder | undefined,
  out: (text: string) => void,
): Promise<number> {
  if (mode !== "files" && !rewinder) {
    throw new CommandError(
      `Restoring a task's conversation is not available yet: use --mode files to restore the files only.`,
      2,
    );
  }
  let checkpoint: Checkpoint;
  if (mode === "task") checkpoint = await store.get(id);
  else {
    let outcome = await store.restore(id, { force });
    if (isUnavailable(outcome)) throw new CommandError(outcome.message, 2);
    if (outcome.status === "conflicts") {
      if (!confirm) throw new CommandError(conflictMessage(outcome), 1);
      if (!(await confirm(conflictQuestion(outcome)))) throw new CommandError("Not restored.", 1);
      outcome = await store.restore(outcome.checkpoint.id, { force: true });
      if (isUnavailable(outcome)) throw new CommandError(outcome.message, 2);
      if (outcome.status === "conflicts") throw new CommandError(conflictMessage(outcome), 1);
    }
    checkpoint = outcome.checkpoint;
    out(restoredMessage(outcome));
  }
  if (mode !== "files") {
    await rewinder!.rewind(checkpoint.taskId, checkpoint.id);
    out(`Task ${checkpoint.taskId} rewound to checkpoint ${short(checkpoint.id)}.`);
  }
  return 0;
}

function restoredMessage(outcome: Extract<RestoreOutcome, { status: "restored" }>): string {
  const { checkpoint, changed, undoId } = outcome;
  if (changed.length === 0) return `The files already match checkpoint ${short(checkpoint.id)}.`;
  const lines = [`Restored the files of checkpoint ${short(checkpoint.id)} (${count(changed.length)}):`];
  lines.push(...changed.map((file) => `  ${MARK[file.status]} ${file.path}`));
  if (undoId) lines.push(`Undo with: bowline checkpoints restore ${short(undoId)} --mode files`);
  return lines.join("\n");
}

function conflictMessage(outcome: Extract<RestoreOutcome, { status: "conflicts" }>): string {
  const files = outcome.files.map((path) => `  ${path}`).join("\n");
  return (
    `Not restored: these files were changed outside the task since its last checkpoint, and the ` +
    `restore would overwrite them:\n${files}\nRun again with --force to overwrite them (the current ` +
    `state is saved first, so the restore can be undone).`
  );
}

function conflictQuestion(outcome: Extract<RestoreOutcome, { status: "conflicts" }>): string {
  const files = outcome.files.map((path) => `  ${path}`).join("\n");
  return (
    `These files were changed outside the task since its last checkpoint, and the restore would ` +
    `overwrite them:\n${files}\nOverwrite them? The current state is saved first, so the restore ` +
    `can be undone. [y/N] `
  );
}

/** A yes/no prompt when a person is at the terminal; undefined otherwise. */
function terminalConfirm(): ((question: string) => Promise<boolean>) | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return async (question) => {
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return /^y(es)?$/i.test((await prompt.question(question)).trim());
    } finally {
      prompt.close();
    }
  };
}

async function formatList(store: CheckpointStore, checkpoints: Checkpoint[]): Promise<string> {
  const header = `Checkpoints of ${store.workspace} (store: ${formatBytes(await store.size())})`;
  if (checkpoints.length === 0) return `${header}\nNone.`;
  const rows = checkpoints.map((c) => {
    const when = new Date(c.createdAt).toISOString().replace("T", " ").slice(0, 19);
    return `${short(c.id)}  ${when}  ${c.taskId}  ${c.kind.padEnd(11)}  ${c.label}${fileSummary(c)}`;
  });
  return [header, ...rows].join("\n");
}

function fileSummary(checkpoint: Checkpoint): string {
  const total = checkpoint.files.length + (checkpoint.moreFiles ?? 0);
  if (total === 0) return "";
  const shown = checkpoint.files.slice(0, 3).map((file) => `${MARK[file.status]}${file.path}`);
  const more = total > shown.length ? `, ${total - shown.length} more` : "";
  return `  (${count(total)}: ${shown.join(" ")}${more})`;
}

function formatDiff(diff: CheckpointDiff): string {
  const to = diff.to === "worktree" ? "the working tree" : short(diff.to);
  if (diff.files.length === 0) return `No differences between ${short(diff.from)} and ${to}.`;
  const lines = [`${short(diff.from)} → ${to}: ${count(diff.files.length)}`];
  for (const file of diff.files) {
    const counts = file.binary ? "binary" : `+${file.added} -${file.removed}`;
    lines.push(`  ${MARK[file.status]} ${file.path} (${counts})`);
  }
  const patches = diff.files.map((file) => file.patch ?? "").join("");
  return patches ? `${lines.join("\n")}\n\n${patches.trimEnd()}` : lines.join("\n");
}

const MARK: Record<FileChange["status"], string> = { added: "+", modified: "~", deleted: "-" };
const short = (id: string) => id.slice(0, 10);
const count = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

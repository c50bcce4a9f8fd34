/**
 * Slash commands answered by the core through protocol commands: checkpoints (`/undo`,
 * `/rewind`, `/diff`), the model, the context window, stored tasks and approval rules.
 */
import type {
  Checkpoint,
  Command,
  ContextReport,
  Event,
  FileDiff,
  RestoreMode,
} from "../../protocol/index.js";
import { formatTokens } from "../../protocol/index.js";
import type { SlashCommand, SlashContext } from "./slash-commands.js";
import type { StyledLine } from "./store.js";

/** Events that answer a checkpoint command, whatever it was. */
const CHECKPOINT_ANSWERS = [
  "checkpoints_listed",
  "checkpoint_diff",
  "checkpoint_restored",
  "checkpoint_restore_conflicts",
  "checkpoints_unavailable",
  "checkpoint_error",
] as const;

/** Lines of a diff shown at most; the rest is counted. */
const MAX_DIFF_LINES = 400;

/** The commands, with the state `/undo` keeps between uses (each /undo goes one step further back). */
export function createSessionCommands(): SlashCommand[] {
  /** The last undo: from which newest step, and the checkpoint it went back to. */
  let undone: { newestStep: string; restored: string } | undefined;

  const undo = async (args: string, ctx: SlashContext) => {
    const list = await listCheckpoints(ctx);
    if (!list) return;
    const newestStep = list.findLast((c) => c.kind === "step");
    if (!newestStep) return ctx.print("Nothing to undo: no step of this task has changed files.");
    // Again after an undo (and no new step since): one checkpoint further back.
    const from =
      undone?.newestStep === newestStep.id ? list.find((c) => c.id === undone?.restored) : newestStep;
    const target = from?.previousId && list.find((c) => c.id === from.previousId);
    if (!from || !target) return ctx.print("Nothing more to undo: this is the task's first checkpoint.");
    const restored = await restore(ctx, target, "files", args.trim() === "force", "/undo force");
    if (!restored) return;
    undone = { newestStep: newestStep.id, restored: target.id };
    ctx.print(
      `Undone: the files are back to before ${from.label}${changedText(restored)}. The conversation is unchanged; /undo again goes further back, /rewind lists every checkpoint.`,
    );
  };

  const rewind = async (args: string, ctx: SlashContext) => {
    const list = await listCheckpoints(ctx);
    if (!list) return;
    if (list.length === 0) return ctx.print("No checkpoints yet: one is taken when the task starts.");
    const [which, modeWord, forceWord] = args.trim().split(/\s+/).filter(Boolean);
    if (!which) return ctx.detail("Checkpoints of this task (oldest first)", timelineLines(list));
    const target = pickCheckpoint(list, which);
    if (!target) return ctx.print(`No checkpoint ${which}: /rewind lists them.`, "warning");
    const mode = (modeWord ?? "both") as RestoreMode;
    if (!["files", "task", "both"].includes(mode))
      return ctx.print("Usage: /rewind <number> [files|task|both] [force]", "warning");
    const restored = await restore(
      ctx,
      target,
      mode,
      forceWord === "force",
      `/rewind ${which} ${mode} force`,
    );
    if (!restored) return;
    const what =
      mode === "files"
        ? "the files"
        : mode === "task"
          ? "the conversation"
          : "the files and the conversation";
    ctx.print(`Rewound ${what} to checkpoint ${which} (${target.label})${changedText(restored)}.`);
  };

  const diff = async (args: string, ctx: SlashContext) => {
    const list = await listCheckpoints(ctx);
    if (!list) return;
    if (list.length === 0) return ctx.print("No checkpoints yet: nothing to compare.");
    const [fromWord, toWord] = args.trim().split(/\s+/).filter(Boolean);
    const from = fromWord ? pickCheckpoint(list, fromWord) : list[0];
    const to = toWord ? pickCheckpoint(list, toWord) : undefined;
    if (!from || (toWord && !to)) return ctx.print("No such checkpoint: /rewind lists them.", "warning");
    const answer = await ctx.request(
      { type: "diff_checkpoints", from: from.id, to: to?.id },
      CHECKPOINT_ANSWERS,
    );
    if (answer.type !== "checkpoint_diff") return reportFailure(ctx, answer);
    const files = answer.diff.files;
    const title = `Changes from ${from.label} to ${to ? to.label : "now"}`;
    if (files.length === 0) return ctx.print(`${title}: none.`);
    ctx.detail(title, diffLines(files));
  };

  return [
    {
      name: "undo",
      description: "undo the last step's file changes (again: further back)",
      run: later(undo),
    },
    {
      name: "rewind",
      args: "[n] [files|task|both]",
      description: "list checkpoints, or go back to one: files, conversation or both",
      run: later(rewind),
    },
    {
      name: "diff",
      args: "[n] [m]",
      description: "what changed since the task started (or checkpoint n)",
      run: later(diff),
    },
    {
      name: "model",
      args: "[id | provider:id]",
      description: "show or switch the model",
      run: later(async (args, ctx) => {
        const wanted = args.trim();
        if (!wanted)
          return ctx.print(
            `Model: ${ctx.state().model || "(not known until the task starts)"}. Switch with /model <id> or /model <provider>:<id>.`,
          );
        const answer = await ctx.request({ type: "set_model", model: wanted }, [
          "model_changed",
          "command_failed",
        ]);
        if (answer.type === "command_failed") return ctx.print(answer.message, "warning");
        if (answer.type !== "model_changed") return;
        ctx.print(
          `Model: ${answer.provider} ${answer.model} (window ${formatTokens(answer.contextWindow)}) from the next request.${answer.note ? ` ${answer.note}` : ""}`,
        );
      }),
    },
    {
      name: "context",
      description: "what fills the context window, by part",
      run: later(async (_, ctx) => {
        const answer = await ctx.request({ type: "get_context" }, ["context_report", "command_failed"]);
        if (answer.type === "command_failed") return ctx.print(answer.message, "warning");
        if (answer.type === "context_report") ctx.detail("Context window", contextLines(answer.report));
      }),
    },
    {
      name: "resume",
      args: "[n]",
      description: "list this workspace's tasks, or continue one",
      run: later(async (args, ctx) => {
        const answer = await ctx.request({ type: "list_tasks" }, ["tasks_listed", "command_failed"]);
        if (answer.type === "command_failed") return ctx.print(answer.message, "warning");
        if (answer.type !== "tasks_listed") return;
        const others = answer.tasks.filter((task) => !task.current);
        if (others.length === 0) return ctx.print("No other task stored for this workspace.");
        const n = Number(args.trim());
        if (!args.trim())
          return ctx.detail("Tasks of this workspace (newest first) — /resume <n> continues one", [
            ...others.map((task, i) => plain(`  ${String(i + 1).padStart(2)}. ${taskLine(task)}`)),
          ]);
        const chosen = Number.isInteger(n)
          ? others[n - 1]
          : others.find((task) => task.id.startsWith(args.trim()));
        if (!chosen) return ctx.print(`No task ${args.trim()}: /resume lists them.`, "warning");
        if (ctx.busy())
          return ctx.print("The agent is working: stop it first (Esc), then /resume.", "warning");
        ctx.resume(chosen.id);
      }),
    },
    {
      name: "rules",
      description: "the approval rules in force",
      run: later(async (_, ctx) => {
        const answer = await ctx.request({ type: "list_rules" }, ["rules_listed", "command_failed"]);
        if (answer.type === "command_failed") return ctx.print(answer.message, "warning");
        if (answer.type !== "rules_listed") return;
        const lines = answer.rules.map((rule) =>
          plain(`  ${rule.action.padEnd(5)} ${rule.rule}  (${rule.source})`),
        );
        ctx.detail("Approval rules (deny wins, then ask, then allow)", [
          ...(lines.length > 0 ? lines : [plain("  No rules: the built-in defaults decide.")]),
          plain(answer.sandbox),
        ]);
      }),
    },
  ];
}

/** Runs an async command, printing what went wrong instead of losing it. */
function later(run: (args: string, ctx: SlashContext) => Promise<void>) {
  return (args: string, ctx: SlashContext) => {
    run(args, ctx).catch((error: unknown) => ctx.print((error as Error).message, "error"));
  };
}

async function listCheckpoints(ctx: SlashContext): Promise<Checkpoint[] | undefined> {
  const taskId = ctx.state().taskId;
  const answer = await ctx.request(
    { type: "list_checkpoints", ...(taskId ? { taskId } : {}) },
    CHECKPOINT_ANSWERS,
  );
  if (answer.type === "checkpoints_listed") return answer.checkpoints;
  reportFailure(ctx, answer);
  return undefined;
}

/** Restores; on conflicts, says which files and how to overwrite them. */
async function restore(
  ctx: SlashContext,
  target: Checkpoint,
  mode: RestoreMode,
  force: boolean,
  forceHow: string,
) {
  if (ctx.busy()) {
    ctx.print("The agent is working: stop it first (Esc), then try again.", "warning");
    return undefined;
  }
  const command: Command = {
    type: "restore_checkpoint",
    checkpointId: target.id,
    mode,
    ...(force ? { force } : {}),
  };
  const answer = await ctx.request(command, CHECKPOINT_ANSWERS);
  if (answer.type === "checkpoint_restored") return answer;
  if (answer.type === "checkpoint_restore_conflicts") {
    ctx.detail("Changed outside the task since its last checkpoint — not overwritten", [
      ...answer.files.map((file) => plain(`  ${file}`)),
      plain(`Run ${forceHow} to overwrite them.`),
    ]);
    return undefined;
  }
  reportFailure(ctx, answer);
  return undefined;
}

function reportFailure(ctx: SlashContext, answer: Event) {
  if (
    answer.type === "checkpoints_unavailable" ||
    answer.type === "checkpoint_error" ||
    answer.type === "command_failed"
  )
    ctx.print(answer.message, "warning");
}

function changedText(restored: Extract<Event, { type: "checkpoint_restored" }>): string {
  const n = restored.changed.length;
  return n === 0
    ? ""
    : ` (${n} file${n === 1 ? "" : "s"}: ${restored.changed
        .map((c) => c.path)
        .slice(0, 5)
        .join(", ")}${n > 5 ? ", …" : ""})`;
}

/** A checkpoint by its number in the list (1 = oldest) or an id prefix. */
function pickCheckpoint(list: Checkpoint[], which: string): Checkpoint | undefined {
  const n = Number(which);
  if (Number.isInteger(n) && n >= 1) return list[n - 1];
  return which.length >= 4 ? list.find((c) => c.id.startsWith(which)) : undefined;
}

const plain = (text: string): StyledLine => ({ kind: "plain", text });

const KIND_NAMES: Record<Checkpoint["kind"], string> = {
  baseline: "start",
  step: "step",
  "pre-restore": "before restore",
  restore: "restored",
};

function timelineLines(list: Checkpoint[]): StyledLine[] {
  const lines = list.map((c, i) => {
    const time = new Date(c.createdAt).toTimeString().slice(0, 8);
    const count = c.files.length + (c.moreFiles ?? 0);
    const files = c.files
      .map((f) => f.path)
      .slice(0, 3)
      .join(", ");
    const more = count > 3 ? `, +${count - 3}` : "";
    return plain(
      `  ${String(i + 1).padStart(2)}. ${time}  ${KIND_NAMES[c.kind]}: ${c.label}${count > 0 ? ` — ${files}${more}` : ""}`,
    );
  });
  return [
    ...lines,
    plain("/rewind <n> [files|task|both] goes back (default both) · /diff <n> shows changes since"),
  ];
}

function diffLines(files: FileDiff[]): StyledLine[] {
  const lines: StyledLine[] = files.map((f) =>
    plain(`  ${f.status.padEnd(8)} ${f.path}  ${f.binary ? "(binary)" : `+${f.added} -${f.removed}`}`),
  );
  for (const file of files) {
    if (!file.patch) continue;
    for (const text of file.patch.replace(/\n$/, "").split("\n")) lines.push(patchLine(text));
  }
  if (lines.length <= MAX_DIFF_LINES) return lines;
  return [...lines.slice(0, MAX_DIFF_LINES), plain(`… ${lines.length - MAX_DIFF_LINES} more lines`)];
}

function patchLine(text: string): StyledLine {
  if (/^(diff --git|index |--- |\+\+\+ |@@)/.test(text)) return { kind: "hunk", text };
  if (text.startsWith("+")) return { kind: "add", text };
  if (text.startsWith("-")) return { kind: "remove", text };
  return plain(text);
}

function contextLines(report: ContextReport): StyledLine[] {
  const window = report.contextWindow;
  const share = (tokens: number) => `${Math.round((tokens / window) * 1000) / 10}%`.padStart(6);
  const parts = [...report.parts].sort((a, b) => b.tokens - a.tokens);
  const total = "total (estimated)";
  const width = Math.max(...parts.map((p) => p.name.length), total.length);
  return [
    ...parts.map((part) =>
      plain(`  ${part.name.padEnd(width)} ${formatTokens(part.tokens).padStart(6)} ${share(part.tokens)}`),
    ),
    plain(
      `  ${"total (estimated)".padEnd(width)} ${formatTokens(report.estimatedTokens).padStart(6)} ${share(report.estimatedTokens)} of ${formatTokens(window)}`,
    ),
    ...(report.lastPromptTokens === undefined
      ? []
      : [
          plain(
            `  The last request's prompt counted ${formatTokens(report.lastPromptTokens)} tokens at the provider.`,
          ),
        ]),
    ...(report.compactAtTokens === undefined
      ? []
      : [plain(`  The conversation is compacted at about ${formatTokens(report.compactAtTokens)} tokens.`)]),
  ];
}

function taskLine(task: Extract<Event, { type: "tasks_listed" }>["tasks"][number]): string {
  const when = task.updatedAt.slice(0, 16).replace("T", " ");
  const cost = task.costUsd === undefined ? "" : ` · $${task.costUsd.toFixed(2)}`;
  const broken = task.status === "broken" ? " (cannot be read)" : "";
  return `${when}  ${task.title}  (${task.turns} turns${cost})${broken}`;
}

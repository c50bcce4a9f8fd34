import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { ApprovalPolicy } from "../../agent/approval.js";
import { DEFAULT_RETRY } from "../../agent/retry.js";
import type { TaskOutcome } from "../../agent/task.js";
import { createNonInteractivePolicy, parseAllowRules } from "../../coding/approval-rules.js";
import { createTaskSession, type TaskSession } from "../../coding/controller.js";
import type { SandboxAvailability } from "../../coding/safety/sandbox.js";
import type { ContinueFrom } from "../../coding/session/continue-task.js";
import { lastTask, listTasks } from "../../coding/session/history-index.js";
import { bowlineHome } from "../../coding/session/paths.js";
import { createTaskRewinder } from "../../coding/session/rewind.js";
import { SessionLoadError } from "../../coding/session/session-error.js";
import { resolveModels } from "../../coding/settings/index.js";
import { decideProjectTrust, pendingTrustQuestion } from "../../coding/trust-project.js";
import { lookupModel } from "../../llm/catalogue.js";
import type { ModelClient } from "../../llm/types.js";
import type { Event } from "../../protocol/index.js";
import type { CliArgs } from "./args.js";
import { runCheckpointsCommand } from "./checkpoints.js";
import { createLineModeHost } from "./line-mode.js";
import { createTextRenderer } from "./render-text.js";
import { type ModelTraffic, recordTraffic, replayTraffic } from "./traffic.js";

export { runHistoryCommand } from "./history.js";
export { runMcpCommand } from "./mcp.js";
export { runPermissionsCommand } from "./permissions.js";

/** `bowline checkpoints ...`, with the conversation side of `restore --mode task|both`. */
export function runCheckpoints(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return runCheckpointsCommand(argv, cwd, env, { rewinder: createTaskRewinder(bowlineHome(env)) });
}
export { runModelsCommand } from "./models.js";

/**
 * Runs one task: print mode (`-p`), the terminal UI (interactive on a terminal), or the
 * line-mode host (interactive without a terminal, or `--no-tui`).
 */
export async function runTaskCommand(
  args: CliArgs,
  injected?: { model: ModelClient; home?: string },
  /** The sandbox probe, started by the entry point before this bundle loaded. */
  sandboxProbe?: Promise<SandboxAvailability>,
): Promise<number> {
  const prompt = (args.prompt ?? (args.print ? readStdin() : undefined))?.trim();
  const home = injected?.home ?? bowlineHome();
  const continueFrom = await chooseStoredTask(args, home);
  if (continueFrom === "stop") return 2;
  if (args.print && !prompt?.trim() && !continueFrom) {
    process.stderr.write(
      'bowline: no task given. Pass it as an argument (bowline -p "fix the failing test") or on stdin.\n',
    );
    return 2;
  }
  // Settings files, then the environment, then flags; a replay takes its model from the recording.
  let traffic: ModelTraffic | undefined;
  if (args.replay && !injected) {
    try {
      traffic = replayTraffic(args.replay);
    } catch (error) {
      process.stderr.write(`bowline: cannot replay ${args.replay}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const resolved = injected
    ? { ok: true as const, models: { act: injected.model.config }, warnings: [], unknownModels: [] }
    : traffic
      ? { ok: true as const, models: { act: traffic.act }, warnings: [], unknownModels: [] }
      : resolveModels({
          flags: { provider: args.provider, model: args.model, baseUrl: args.baseUrl },
          env: process.env,
          workspaceRoot: args.cwd,
        });
  if (!resolved.ok) {
    const what = resolved.code === "no_model" ? "no model configured." : "invalid settings.";
    process.stderr.write(`bowline: ${what}\n${resolved.message}\n`);
    return 2;
  }
  for (const warning of resolved.warnings) process.stderr.write(`bowline: warning: ${warning}\n`);
  // Print mode keeps stderr for failures unless --verbose.
  if (!args.print || args.verbose) {
    for (const line of resolved.unknownModels) process.stderr.write(`bowline: note: ${line}\n`);
  }
  if (args.record && !injected) {
    try {
      traffic = recordTraffic(args.record, resolved.models.act, resolved.models.plan);
    } catch (error) {
      process.stderr.write(`bowline: cannot record to ${args.record}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const models = traffic ?? resolved.models;
  const interactive = !args.print;
  const output = createOutput(args);
  // A person at a terminal is asked once whether this project's hooks, MCP servers and allow rules may count.
  if (interactive && process.stdin.isTTY && process.stderr.isTTY && !continueFrom)
    await askProjectTrust(home, args.cwd);
  // The TUI bundle (Ink, React) loads only for a person at a terminal.
  const tuiModule =
    interactive && !args.noTui && process.stdin.isTTY && process.stdout.isTTY
      ? await import("../tui/index.js")
      : undefined;
  let tui = tuiModule?.createTuiHost();
  const line = interactive && !tui ? createLineModeHost() : undefined;
  let session: TaskSession | undefined;
  const policy: ApprovalPolicy = createNonInteractivePolicy({
    yes: args.yes,
    allow: parseAllowRules(args.allow),
  });
  const interactivePolicy: ApprovalPolicy = (tool, input) => {
    const decision = policy(tool, input);
    return decision.type === "deny" ? { type: "ask" } : decision;
  };
  const emit = (event: Event) => {
    if (tui) return tui.emit(event);
    output.event(event);
    if (line && session) line.handle(event, session.dispatch);
  };
  const openSession = (from: ContinueFrom | undefined) =>
    createTaskSession({
      cwd: args.cwd,
      continueFrom: from,
      modelConfig: models.act,
      planModelConfig: models.plan,
      model: injected?.model,
      home,
      sandboxProbe,
      policy: interactive ? interactivePolicy : policy,
      interactive,
      emit,
      commandTimeoutSeconds: args.commandTimeoutSeconds,
      mode: args.mode,
      toolProtocol: args.toolProtocol,
      compact: args.compact,
      focusChain: args.focusChain,
      yolo: args.yes,
      retry: args.maxRetries === undefined ? undefined : { ...DEFAULT_RETRY, attempts: args.maxRetries },
      streamIdleTimeoutMs:
        args.streamIdleTimeoutSeconds === undefined ? undefined : args.streamIdleTimeoutSeconds * 1000,
      limits: { turns: args.maxTurns, tokens: args.budgetTokens, costUsd: args.budgetUsd },
    });
  try {
    session = await openSession(continueFrom);
  } catch (error) {
    if (!(error instanceof SessionLoadError)) throw error;
    process.stderr.write(`bowline: ${error.message}\n`);
    return 2;
  }
  let active = session;
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    process.stderr.write("\nbowline: aborting (press Ctrl-C again to force quit)\n");
    active.dispatch({ type: "abort" });
  };
  // The TUI reads Ctrl-C as a key (twice to leave); SIGINT is for the other hosts.
  if (!tui) process.on("SIGINT", onSigint);
  const started = Date.now();
  try {
    if (tui && tuiModule) {
      let first = true;
      // A stored task (continued, or picked with `/resume`) starts at once; a new one waits.
      let stored = continueFrom !== undefined;
      let code: number;
      for (;;) {
        const ran = await tui.run(active, {
          cwd: args.cwd,
          prompt: first ? prompt : undefined,
          resume: stored,
          yolo: args.yes,
          model: models.act.model,
          contextWindow: lookupModel(models.act.provider, models.act.model).info.contextWindow,
        });
        code = ran.code;
        if (!ran.resume && !ran.newTask) break;
        // `/resume` or `/clear`: this task is saved as it is; the chosen one, or a new one,
        // opens in a fresh screen.
        await active.close();
        tui = tuiModule.createTuiHost();
        stored = ran.resume !== undefined;
        try {
          active = session = await openSession(ran.resume ? { taskId: ran.resume } : undefined);
        } catch (error) {
          if (!(error instanceof SessionLoadError)) throw error;
          process.stderr.write(`bowline: ${error.message}\n`);
          return 2;
        }
        first = false;
      }
      const trafficProblem = traffic?.finish();
      traffic = undefined;
      if (trafficProblem) process.stderr.write(`bowline: ${trafficProblem}\n`);
      return trafficProblem ? 1 : code;
    }
    const text = continueFrom ? (prompt ?? "") : (prompt ?? (await askForTask()));
    if (text === undefined || (!text && !continueFrom)) return 2;
    const outcome = await active.run(text);
    const trafficProblem = traffic?.finish();
    traffic = undefined;
    if (trafficProblem) process.stderr.write(`bowline: ${trafficProblem}\n`);
    output.finish(outcome, {
      taskId: active.task.id,
      turns: active.task.turns,
      usage: active.task.usage,
      durationMs: Date.now() - started,
      taskDir: active.taskDir,
      journalBytesWritten: active.journalBytesWritten(),
    });
    return trafficProblem ? 1 : exitCode(outcome);
  } finally {
    traffic?.finish();
    process.off("SIGINT", onSigint);
    line?.close();
    await active.close();
  }
}

function exitCode(outcome: TaskOutcome): number {
  if (outcome.status === "completed") return 0;
  if (outcome.status === "aborted") return 130;
  return 1;
}

type Summary = {
  taskId: string;
  turns: number;
  usage: unknown;
  durationMs: number;
  taskDir: string;
  journalBytesWritten: number;
};

function createOutput(args: CliArgs) {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const err = (text: string) => process.stderr.write(`${text}\n`);
  const textRenderer = !args.print
    ? createTextRenderer(out)
    : args.verbose
      ? createTextRenderer(err)
      : undefined;
  return {
    event(event: Event) {
      if (args.print && args.outputFormat === "stream-json") out(JSON.stringify(event));
      else textRenderer?.(event);
    },
    finish(outcome: TaskOutcome, summary: Summary) {
      if (!args.print) return;
      const result = {
        type: "result",
        status: outcome.status,
        result: outcome.status === "completed" ? outcome.result : undefined,
        error: outcome.status === "failed" ? { code: outcome.code, message: outcome.message } : undefined,
        ...summary,
      };
      if (args.outputFormat !== "text") out(JSON.stringify(result));
      else if (outcome.status === "completed") out(outcome.result);
      else if (outcome.status === "failed") err(`bowline: task failed (${outcome.code}): ${outcome.message}`);
      else err("bowline: task aborted");
    },
  };
}

function readStdin(): string | undefined {
  if (process.stdin.isTTY) return undefined;
  try {
    return readFileSync(0, "utf8");
  } catch {
    return undefined;
  }
}

/** y trusts, n distrusts (both remembered), anything else leaves the question for next time. */
async function askProjectTrust(home: string, cwd: string): Promise<void> {
  let root: string;
  try {
    root = realpathSync(resolve(cwd));
  } catch {
    return; // a missing folder is reported when the session opens
  }
  const pending = pendingTrustQuestion(home, root);
  if (!pending) return;
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (
      await rl.question(`${pending.question}\n[y] trust · [n] do not trust · [Enter] not now: `)
    )
      .trim()
      .toLowerCase();
    if (answer === "y" || answer === "yes" || answer === "n" || answer === "no")
      decideProjectTrust(home, pending.subject, answer.startsWith("y"), process.env);
  } finally {
    rl.close();
  }
}

async function askForTask(): Promise<string | undefined> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question("What should Bowline do? ")).trim() || undefined;
  } finally {
    rl.close();
  }
}

/**
 * The stored task `--continue`, `--resume` or `--fork` names (`--resume` alone: picked from a
 * list); "stop" when there is none to continue (the reason is printed).
 */
async function chooseStoredTask(args: CliArgs, home: string): Promise<ContinueFrom | "stop" | undefined> {
  const workspace = resolve(args.cwd);
  if (args.fork) return { forkOf: args.fork, atEntry: args.forkAt };
  if (args.continueLast) {
    const last = lastTask(home, workspace);
    if (last) return { taskId: last.id };
    process.stderr.write(`bowline: no task to continue in ${workspace}.\n`);
    return "stop";
  }
  if (args.resume === undefined) return undefined;
  if (args.resume) return { taskId: args.resume };
  const tasks = listTasks(home, { workspace }).slice(0, 20);
  if (tasks.length === 0 || args.print) {
    process.stderr.write(
      tasks.length === 0
        ? `bowline: no stored tasks in ${workspace}.\n`
        : "bowline: --resume needs a task id in print mode (see bowline history).\n",
    );
    return "stop";
  }
  const lines = tasks.map(
    (t, i) => `  ${String(i + 1).padStart(2)}. ${t.updatedAt.slice(0, 16).replace("T", " ")}  ${t.title}`,
  );
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${lines.join("\n")}\nWhich task? `);
    const chosen = tasks[Number(answer.trim()) - 1];
    if (chosen) return { taskId: chosen.id };
    process.stderr.write("bowline: no task chosen.\n");
    return "stop";
  } finally {
    rl.close();
  }
}

import { readFileSync } from "node:fs";
import path from "node:path";
import {
  createOutcomeBuilder,
  type HookEvent,
  type HookOutcome,
  type HookPayload,
  type HookRunner,
  type HookRunOptions,
} from "../../agent/pipeline/hooks.js";
import { discoverHooks } from "./discover-hooks.js";
import { interpretHookResult } from "./hook-output.js";
import { runHookProcess } from "./run-hook-process.js";

export interface ExecutableHookRunnerOptions {
  /** Searched in this order, e.g. `~/.bowline/hooks` then `<workspace>/.bowline/hooks`. */
  dirs: readonly string[];
  /** Workspace root: the hooks' working directory, and `workspace` in their input. */
  workspace: string;
  /** Per hook. Default 10_000. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL when a hook is stopped. Default 1000. */
  killGraceMs?: number;
  /** Environment the hooks start from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** `~/.bowline/hooks` (user) and `<workspace>/.bowline/hooks` (project), in that order. */
export function defaultHookDirs(bowlineHome: string, workspaceRoot: string): string[] {
  return [path.join(bowlineHome, "hooks"), path.join(workspaceRoot, ".bowline", "hooks")];
}

/**
 * The hook folders to use: the user's always; the project's only when the person trusts that
 * workspace, by listing its root (one absolute path per line) in `<home>/trusted-workspaces`.
 * A cloned repository's own hooks are code from the repository: they must not run unasked.
 */
export function trustedHookDirs(bowlineHome: string, workspaceRoot: string): string[] {
  const [user, project] = defaultHookDirs(bowlineHome, workspaceRoot);
  let trusted: string[] = [];
  try {
    trusted = readFileSync(path.join(bowlineHome, "trusted-workspaces"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
  } catch {
    // No trust list: no workspace is trusted.
  }
  return trusted.includes(workspaceRoot) ? [user!, project!] : [user!];
}

/**
 * Hooks that are executable files (see `discoverHooks` for naming and order). Each runs with the
 * workspace as working directory and gets one JSON document on stdin:
 * `{ "event", "taskId", "workspace", ...the event's payload }` (PreToolUse: `tool`, `input`;
 * PostToolUse: `tool`, `input`, `result`, `durationMs`; ...). It answers on stdout with nothing
 * (no opinion) or one JSON object: `{ "block": true, "reason": "..." }`, `{ "input": {...} }`
 * (PreToolUse: replaces the input), `{ "context": "..." }` (text for the model). Exit code 2 also
 * blocks, with stderr as the reason; any other non-zero exit is reported as a problem.
 * Hooks run one after another: the first block ends the run, each PreToolUse hook sees the input
 * as rewritten by the hooks before it, contexts are joined.
 */
export function createExecutableHookRunner(options: ExecutableHookRunnerOptions): HookRunner {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const killGraceMs = options.killGraceMs ?? 1000;
  return {
    async run<E extends HookEvent>(
      event: E,
      payload: HookPayload<E>,
      runOptions: HookRunOptions = {},
    ): Promise<HookOutcome> {
      const builder = createOutcomeBuilder(event);
      const { hooks, problems } = await discoverHooks(options.dirs, event);
      for (const problem of problems) builder.problem("hooks", problem);
      const original = (payload as { input?: unknown }).input;
      for (const hook of hooks) {
        if (runOptions.signal?.aborted) {
          builder.problem(hook, "not run: the task was aborted");
          continue;
        }
        const document = { event, workspace: options.workspace, ...payload } as Record<string, unknown>;
        if (event === "PreToolUse") document.input = builder.currentInput(original);
        const result = await runHookProcess({
          file: hook,
          stdin: JSON.stringify(document),
          cwd: options.workspace,
          env: {
            ...(options.env ?? process.env),
            BOWLINE_HOOK_EVENT: event,
            BOWLINE_WORKSPACE: options.workspace,
          },
          timeoutMs,
          killGraceMs,
          signal: runOptions.signal,
        });
        const { answer, problems: hookProblems } = interpretHookResult(result, timeoutMs);
        for (const problem of hookProblems) builder.problem(hook, problem);
        if (!builder.add(hook, answer)) break;
      }
      return builder.finish();
    },
  };
}

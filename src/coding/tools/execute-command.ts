import path from "node:path";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import type { KeptOutput } from "../process/output-buffer.js";
import { findShell, runShellCommand, type ShellCommandResult } from "../process/run-shell-command.js";
import { toPlainText } from "../process/terminal-text.js";
import type { Workspace } from "../workspace.js";
import { oneLine } from "./summary.js";

const describe = (defaultTimeout: number, shell: string) =>
  `Run a shell command (${shell}) in the workspace root and return its exit code and output (stdout and stderr interleaved). The command cannot read input: anything that prompts fails or gets end-of-file, so pass non-interactive flags (e.g. "-y", "--yes"). Pagers are disabled. It is stopped after ${defaultTimeout} seconds unless you give a timeout; do not start servers or watchers that never exit. Long output keeps its beginning and end. To change directory for one command, use "cd dir && command".`;

const schema = z.object({
  command: z
    .string()
    .check(z.minLength(1), z.describe("The shell command to run, as you would type it in bash.")),
  timeout: z.optional(
    z
      .number()
      .check(
        z.positive(),
        z.maximum(3600),
        z.describe(
          "Seconds to let the command run before it is stopped. Give more for long builds or test suites.",
        ),
      ),
  ),
  requires_approval: z.optional(
    z
      .boolean()
      .check(
        z.describe(
          "true if the command changes anything (installs, deletes, writes, pushes, network calls); false for read-only commands.",
        ),
      ),
  ),
});

export type ExecuteCommandInput = z.infer<typeof schema>;

export interface ExecuteCommandDetails {
  command: string;
  /** null when the command was ended by a signal. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** True when the middle of the output was left out. */
  truncated: boolean;
  durationMs: number;
}

export interface ExecuteCommandOptions {
  workspace: Workspace;
  /** Default 120. */
  defaultTimeoutSeconds?: number;
  /** Characters of output returned (head and tail). Default 30_000. */
  maxOutputChars?: number;
  /** Time between SIGTERM and SIGKILL when stopping a command. Default 2000 ms. */
  killGraceMs?: number;
  /** Shell run as `<shell> -c <command>`. Default: bash from PATH, else /bin/sh. */
  shell?: string;
  /** Environment the command starts from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Variables that keep commands from waiting for a person who is not there. CI is deliberately
 * not set: it makes tools change what they do, not only how they talk (pnpm refuses to update
 * the lockfile, jest stops writing new snapshots), which would surprise the model.
 */
const NON_INTERACTIVE_ENV = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  MANPAGER: "cat",
  SYSTEMD_PAGER: "",
  // git fails instead of asking for credentials, and accepts messages instead of opening an editor.
  GIT_TERMINAL_PROMPT: "0",
  GIT_EDITOR: "true",
  DEBIAN_FRONTEND: "noninteractive",
  NO_COLOR: "1",
};

const NOT_RUN = {
  exitCode: null,
  signal: null,
  timedOut: false,
  aborted: true,
  truncated: false,
  durationMs: 0,
} satisfies Omit<ExecuteCommandDetails, "command">;

export function createExecuteCommandTool(
  options: ExecuteCommandOptions,
): ToolHandler<ExecuteCommandInput, ExecuteCommandDetails> {
  const defaultTimeout = options.defaultTimeoutSeconds ?? 120;
  const shell = options.shell ?? findShell();
  return {
    name: "execute_command",
    description: describe(defaultTimeout, path.basename(shell)),
    inputSchema: schema,
    mutates: true,
    category: "command",
    summarize: (input) => `execute_command ${oneLine(input.command)}`,
    async execute(input, ctx) {
      if (ctx.signal.aborted) {
        const details = { ...NOT_RUN, command: input.command };
        return { content: "The command was not run: the task was aborted.", details, isError: true };
      }
      const timeoutSeconds = input.timeout ?? defaultTimeout;
      const result = await runShellCommand({
        command: input.command,
        cwd: options.workspace.root,
        shell,
        env: { ...(options.env ?? process.env), ...NON_INTERACTIVE_ENV },
        timeoutMs: timeoutSeconds * 1000,
        signal: ctx.signal,
        maxOutputChars: options.maxOutputChars ?? 30_000,
        killGraceMs: options.killGraceMs ?? 2000,
        onOutput: (text) => ctx.onProgress({ type: "output", text }),
      });
      const details: ExecuteCommandDetails = {
        command: input.command,
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        aborted: result.aborted,
        truncated: result.output.omitted > 0,
        durationMs: result.durationMs,
      };
      const content = `${outcome(result, timeoutSeconds)}\n${renderOutput(result.output)}`;
      return result.timedOut || result.aborted ? { content, details, isError: true } : { content, details };
    },
  };
}

function outcome(result: ShellCommandResult, timeoutSeconds: number): string {
  if (result.aborted) return "The command was aborted by the user and stopped. Output so far:";
  if (result.timedOut) {
    return (
      `Command timed out after ${timeoutSeconds}s and was stopped, with every process it started. ` +
      "If it needs longer, run it again with a larger timeout; if it never exits (a server, a watcher), " +
      "do not run it this way. Output so far:"
    );
  }
  if (result.exitCode === 0) return "Command exited with code 0. Output:";
  if (result.exitCode !== null) return `Command failed with exit code ${result.exitCode}. Output:`;
  return `Command was terminated by signal ${result.signal}. Output:`;
}

function renderOutput(output: KeptOutput): string {
  const head = toPlainText(output.head);
  if (output.omitted === 0) return `${head}${toPlainText(output.tail)}` || "(no output)";
  return `${head}\n[... ${output.omitted} characters omitted ...]\n${toPlainText(output.tail)}`;
}

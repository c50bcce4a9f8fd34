import path from "node:path";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import type { BackgroundRegistry } from "../process/background-registry.js";
import { findShell, runShellCommand, type ShellCommandResult } from "../process/run-shell-command.js";
import { looksLikeServer } from "../process/server-output.js";
import { renderKeptOutput } from "../process/terminal-text.js";
import {
  type CommandSandbox,
  describeSandbox,
  diagnoseSandboxFailure,
  networkOptions,
  refusedHostsMessage,
  sandboxEnv,
  sandboxFailureMessage,
  sandboxLauncher,
} from "../safety/sandbox.js";
import { sharedNetwork, startSharedNetwork } from "../safety/sandbox-network.js";
import { loadShellParser } from "../safety/shell-parser.js";
import type { Workspace } from "../workspace.js";
import { oneLine } from "./summary.js";

const describe = (
  defaultTimeout: number,
  maxTimeout: number,
  shell: string,
  background: boolean,
  sandbox: CommandSandbox | undefined,
) =>
  [
    `Run a shell command (${shell}) in the workspace root; returns the exit code and output (stdout and stderr interleaved, long output keeps its beginning and end).`,
    ...(sandbox ? [describeSandbox(sandbox)] : []),
    `It cannot read input (a command waiting for input is stopped): pass non-interactive flags such as --yes.`,
    `Stopped after ${defaultTimeout} s unless you give a timeout (at most ${maxTimeout}), e.g. for builds and test suites.`,
    background
      ? `For servers and watchers, set background to true: you get an id and the first output; command_output reads later output or stops it.`
      : "Do not start servers or watchers that never exit.",
    `To run in another directory: "cd dir && command".`,
  ].join(" ");

const schema = z.object({
  command: z
    .string()
    .check(z.minLength(1), z.describe("The shell command to run, as you would type it in bash.")),
  timeout: z.optional(
    z
      .number()
      .check(
        z.positive(),
        z.describe(
          "Seconds to let the command run before it is stopped (capped at the maximum in the tool description). Give more for long builds or test suites.",
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
  background: z.optional(
    z
      .boolean()
      .check(
        z.describe(
          "true to leave the command running (a server, a watcher) and return an id for command_output.",
        ),
      ),
  ),
});

/** Offered only when commands run in the sandbox. */
const sandboxedSchema = z.extend(schema, {
  unsandboxed: z.optional(
    z
      .boolean()
      .check(
        z.describe(
          "true to run outside the sandbox (the user is asked first). Only after the command failed because of the sandbox, e.g. it needs the network or to write outside the workspace.",
        ),
      ),
  ),
});

export type ExecuteCommandInput = z.infer<typeof sandboxedSchema>;

export interface ExecuteCommandDetails {
  command: string;
  /** null when the command was ended by a signal or is still running. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped because it was blocked waiting for input. */
  waitingForInput: boolean;
  /** Set when the command was left running in the background (see command_output). */
  backgroundId?: string;
  /** The timeout applied, after the default and the cap. */
  timeoutSeconds: number;
  /** True when the middle of the output was left out. */
  truncated: boolean;
  durationMs: number;
  /** The command ran in the OS sandbox. */
  sandboxed?: boolean;
  /** Why the command seems to have failed because of the sandbox. */
  sandboxFailure?: string;
}

export interface ExecuteCommandOptions {
  workspace: Workspace;
  /** Default 30. */
  defaultTimeoutSeconds?: number;
  /** The most a call may ask for. Default 600. */
  maxTimeoutSeconds?: number;
  /** Characters of output returned (head and tail). Default 30_000. */
  maxOutputChars?: number;
  /** Time between SIGTERM and SIGKILL when stopping a command. Default 2000 ms. */
  killGraceMs?: number;
  /** Quiet time before a command blocked reading input is stopped; 0 disables. Default 3000 ms. */
  inputWaitMs?: number;
  /**
   * Where background commands are kept. Without one, `background` is refused and nothing is
   * ever left running.
   */
  registry?: BackgroundRegistry;
  /** How long a background start waits for first output (or an early exit). Default 2000 ms. */
  backgroundStartMs?: number;
  /** Shell run as `<shell> -c <command>`. Default: bash from PATH, else /bin/sh. */
  shell?: string;
  /** Environment the command starts from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Run commands in this OS sandbox (bubblewrap; see `detectSandbox`), without credentials in
   * their environment. A call may ask to run outside it with `unsandboxed` (the approval policy
   * asks the person first).
   */
  sandbox?: CommandSandbox;
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

/** Said of a command left running in a sandbox without network (e.g. a dev server). */
const ISOLATED_SERVER_NOTE =
  "[Sandbox] It runs in the sandbox without network: its ports cannot be reached from other commands, nor by the user. If they must be, stop it and start it again with unsandboxed: true; the user will be asked to approve it.";
/** The same where sandboxed commands share one localhost. */
const SHARED_LOOPBACK_SERVER_NOTE =
  "[Sandbox] It runs in the sandbox without network: later commands can reach its ports on localhost, the user cannot. If the user must, stop it and start it again with unsandboxed: true; the user will be asked to approve it.";

export const INPUT_WAIT_MESSAGE =
  "The command appears to be waiting for input (e.g. a prompt); it was stopped. Pass flags that avoid prompts (e.g. --yes) or provide input via a file or pipe.";

export function createExecuteCommandTool(
  options: ExecuteCommandOptions,
): ToolHandler<ExecuteCommandInput, ExecuteCommandDetails> {
  const maxTimeout = options.maxTimeoutSeconds ?? 600;
  const defaultTimeout = Math.min(options.defaultTimeoutSeconds ?? 30, maxTimeout);
  const shell = options.shell ?? findShell();
  const { registry, sandbox } = options;
  return {
    name: "execute_command",
    description: describe(defaultTimeout, maxTimeout, path.basename(shell), registry !== undefined, sandbox),
    inputSchema: sandbox ? sandboxedSchema : schema,
    mutates: true,
    category: "command",
    // The approval rules read commands with the shell grammar, loaded once; sandboxed
    // commands without network share a namespace, started once.
    prepare: async () => {
      await loadShellParser();
      if (sandbox?.sharedLoopback && !sandbox.network && sandbox.bwrapPath)
        await startSharedNetwork(sandbox.bwrapPath, networkOptions(sandbox));
    },
    summarize: (input) =>
      `execute_command ${input.background ? "(background) " : ""}${oneLine(input.command)}`,
    async execute(input, ctx) {
      const timeoutSeconds = Math.min(input.timeout ?? defaultTimeout, maxTimeout);
      const startMs = options.backgroundStartMs ?? 2000;
      const notRun = (reason: string) => ({
        content: `The command was not run: ${reason}`,
        details: { ...NOT_RUN, command: input.command, timeoutSeconds },
        isError: true,
      });
      if (ctx.signal.aborted) return notRun("the task was aborted.");
      if (input.background && !registry) return notRun("background commands are not available here.");
      const refusal = input.background ? registry?.refusal() : undefined;
      if (refusal) return notRun(refusal);
      const confined = sandbox && !input.unsandboxed ? sandbox : undefined;
      const env = { ...(options.env ?? process.env), ...NON_INTERACTIVE_ENV };
      const network = confined?.sharedLoopback ? sharedNetwork(networkOptions(confined)) : undefined;
      const startedAt = Date.now();
      const result = await runShellCommand({
        command: input.command,
        cwd: options.workspace.root,
        shell,
        env: confined ? sandboxEnv(env) : env,
        ...(confined ? { launcher: sandboxLauncher(confined, network) } : {}),
        // A background start ends at detachAfterMs; the timeout must not stop it first.
        timeoutMs: input.background ? startMs + 60_000 : timeoutSeconds * 1000,
        signal: ctx.signal,
        maxOutputChars: options.maxOutputChars ?? 30_000,
        killGraceMs: options.killGraceMs ?? 2000,
        inputWaitMs: options.inputWaitMs ?? 3000,
        ...(input.background ? { detachAfterMs: startMs } : {}),
        detachOnTimeout: (proc) => {
          if (!registry || registry.refusal()) return false;
          const { head, tail } = proc.output();
          return looksLikeServer(head) || looksLikeServer(tail);
        },
        onOutput: (text) => ctx.onProgress({ type: "output", text }),
      });
      const backgroundId = result.detached && registry?.add(result.detached);
      const details: ExecuteCommandDetails = {
        command: input.command,
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        aborted: result.aborted,
        waitingForInput: result.waitingForInput,
        ...(backgroundId ? { backgroundId } : {}),
        timeoutSeconds,
        truncated: result.output.omitted > 0,
        durationMs: result.durationMs,
        ...(confined ? { sandboxed: true } : {}),
      };
      const output = renderKeptOutput(result.output);
      const failedInSandbox = confined && !backgroundId && result.exitCode !== 0 && !result.aborted;
      const refused = network?.proxy?.hosts.refusedSince(startedAt) ?? [];
      const sandboxFailure = failedInSandbox ? diagnoseSandboxFailure(confined, output, refused) : undefined;
      if (sandboxFailure) details.sandboxFailure = sandboxFailure;
      const requested = input.timeout !== undefined && input.timeout > maxTimeout;
      const capNote = requested ? ` (the ${input.timeout}s asked for is capped at ${maxTimeout}s)` : "";
      const background = backgroundId && { id: backgroundId, automatic: !input.background };
      const serverNote = confined?.sharedLoopback ? SHARED_LOOPBACK_SERVER_NOTE : ISOLATED_SERVER_NOTE;
      const isolated = backgroundId && confined && !confined.network ? `\n${serverNote}` : "";
      const note = sandboxFailure
        ? `\n${sandboxFailureMessage(sandboxFailure)}`
        : refused.length > 0
          ? `\n${refusedHostsMessage(refused)}`
          : isolated;
      const content = `${outcome(result, timeoutSeconds, capNote, background || undefined)}\n${output}${note}`;
      const failed =
        result.timedOut || result.aborted || result.waitingForInput || sandboxFailure !== undefined;
      return failed ? { content, details, isError: true } : { content, details };
    },
  };
}

const NOT_RUN = {
  exitCode: null,
  signal: null,
  timedOut: false,
  aborted: true,
  waitingForInput: false,
  truncated: false,
  durationMs: 0,
} satisfies Omit<ExecuteCommandDetails, "command" | "timeoutSeconds">;

function outcome(
  result: ShellCommandResult,
  timeoutSeconds: number,
  capNote: string,
  background: { id: string; automatic: boolean } | undefined,
): string {
  if (background) {
    const backgroundId = background.id;
    const why = background.automatic
      ? `It was still running at its ${timeoutSeconds}s timeout${capNote} and its output looks like a server or watcher, so it was left running`
      : "It keeps running";
    return (
      `Command started in the background as ${backgroundId}. ${why}; use command_output with id "${backgroundId}" ` +
      `to read its new output or to stop it. Output so far:`
    );
  }
  if (result.aborted) return "The command was aborted by the user and stopped. Output so far:";
  if (result.waitingForInput) return `${INPUT_WAIT_MESSAGE} Output so far:`;
  if (result.timedOut) {
    return (
      `Command timed out after ${timeoutSeconds}s${capNote} and was stopped, with every process it started. ` +
      "If it needs longer, run it again with a larger timeout; if it never exits (a server, a watcher), " +
      "run it with background set to true. Output so far:"
    );
  }
  if (result.exitCode === 0) return `Command exited with code 0${capNote}. Output:`;
  if (result.exitCode !== null) return `Command failed with exit code ${result.exitCode}. Output:`;
  return `Command was terminated by signal ${result.signal}. Output:`;
}

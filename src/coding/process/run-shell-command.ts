import fs from "node:fs";
import path from "node:path";
import { HeadTailBuffer, type KeptOutput } from "./output-buffer.js";

export interface ShellCommandOptions {
  command: string;
  cwd: string;
  /** Shell run as `<shell> -c <command>`. */
  shell: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Aborting kills the command like a timeout does. */
  signal: AbortSignal;
  /** Characters of output kept (head and tail). */
  maxOutputChars: number;
  /** Time between SIGTERM and SIGKILL when stopping the command. */
  killGraceMs: number;
  /** Each chunk of stdout or stderr as it arrives. */
  onOutput(text: string): void;
}

export interface ShellCommandResult {
  /** stdout and stderr interleaved in arrival order. */
  output: KeptOutput;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/**
 * How long to wait, after the shell exits, for its output pipes to close. A process the command
 * left running in the background can hold them open forever; its later output is not collected.
 */
const PIPE_DRAIN_MS = 250;

/**
 * Runs `command` in its own process group with stdin closed. A timeout or an abort stops the
 * whole group: SIGTERM, then SIGKILL after `killGraceMs`. Rejects only when the shell cannot be
 * started; a failing command resolves with its exit code.
 */
export async function runShellCommand(options: ShellCommandOptions): Promise<ShellCommandResult> {
  // Loaded on first use: most starts never run a command before their first model request.
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(options.shell, ["-c", options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = new HeadTailBuffer(options.maxOutputChars);
    let timedOut = false;
    let aborted = false;
    let stopping = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const onChunk = (text: string) => {
      output.append(text);
      options.onOutput(text);
    };
    child.stdout.setEncoding("utf8").on("data", onChunk);
    child.stderr.setEncoding("utf8").on("data", onChunk);

    const stop = () => {
      if (stopping || child.pid === undefined) return;
      stopping = true;
      signalGroup(child.pid, "SIGTERM");
      setTimeout(() => signalGroup(child.pid!, "SIGKILL"), options.killGraceMs).unref();
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    options.signal.addEventListener("abort", onAbort, { once: true });

    const cleanUp = () => {
      clearTimeout(timeout);
      clearTimeout(drainTimer);
      options.signal.removeEventListener("abort", onAbort);
    };
    let settled = false;
    const finish = () => {
      if (settled || exit === undefined) return;
      settled = true;
      cleanUp();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        output: output.kept(),
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
      });
    };
    child.on("error", (error) => {
      settled = true;
      cleanUp();
      reject(error);
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(finish, PIPE_DRAIN_MS);
    });
    child.on("close", finish);
    if (options.signal.aborted) onAbort();
  });
}

/**
 * Sends `signal` to the process group led by `pid`. ESRCH (no such group) and EPERM (the id now
 * belongs to someone else's group) both mean our group is gone, which is what stopping wants.
 */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ESRCH" && code !== "EPERM") throw error;
  }
}

/** `bash` from PATH when there is one, else `/bin/sh`. */
export function findShell(pathVariable = process.env.PATH ?? ""): string {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, "bash");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory; try the next one.
    }
  }
  return "/bin/sh";
}

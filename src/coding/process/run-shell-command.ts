import fs from "node:fs";
import path from "node:path";
import { probeGroupActivity } from "./input-wait.js";
import type { KeptOutput } from "./output-buffer.js";
import { type ShellProcess, type ShellProcessOptions, startShellProcess } from "./shell-process.js";

export interface ShellCommandOptions extends ShellProcessOptions {
  timeoutMs: number;
  /** Aborting stops the command like a timeout does. */
  signal: AbortSignal;
  /**
   * Each chunk of output as it arrives, for display. Throttled to `maxStreamCharsPerSecond`:
   * what does not fit is skipped and replaced by a `[... N characters not shown ...]` line.
   */
  onOutput(text: string): void;
  /** Default 32_000. */
  maxStreamCharsPerSecond?: number;
  /**
   * Quiet time after which a command whose processes all sit blocked reading a terminal, pipe or
   * FIFO is stopped and reported as waiting for input. 0 disables. Default 3000 ms.
   */
  inputWaitMs?: number;
  /** Leave the command running once this much time has passed (a background start). */
  detachAfterMs?: number;
  /** Asked at the timeout: true leaves the command running instead of stopping it. */
  detachOnTimeout?(process: ShellProcess): boolean;
}

export interface ShellCommandResult {
  /**
   * stdout and stderr interleaved in arrival order: everything, or when detached, everything so
   * far (later reads of the process return only what comes after).
   */
  output: KeptOutput;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped because it was blocked waiting for input. */
  waitingForInput: boolean;
  durationMs: number;
  /** The process, still running, when the command was left running; the caller owns it. */
  detached?: ShellProcess;
}

/**
 * Runs a command in its own process group with stdin closed, until it exits, times out, is
 * aborted, is found waiting for input (all of which stop the whole group: SIGTERM, then SIGKILL
 * after `killGraceMs`), or is detached. Rejects only when the shell cannot be started; a failing
 * command resolves with its exit code.
 */
export async function runShellCommand(options: ShellCommandOptions): Promise<ShellCommandResult> {
  const proc = await startShellProcess(options);
  const stream = throttle(options.onOutput, options.maxStreamCharsPerSecond ?? 32_000);
  const unsubscribe = proc.onOutput(stream.write);
  const ended = await superviseUntilEnd(proc, options);
  unsubscribe();
  stream.flush();
  const base = {
    exitCode: null,
    signal: null,
    timedOut: ended === "timeout",
    aborted: ended === "abort",
    waitingForInput: ended === "input",
    durationMs: Date.now() - proc.startedAt,
  };
  if (ended === "detach") return { ...base, output: proc.takeUnread(), detached: proc };
  const exit = proc.exitStatus ?? (await proc.stop());
  return { ...base, output: proc.output(), exitCode: exit.code, signal: exit.signal };
}

type End = "exit" | "timeout" | "abort" | "input" | "detach";

/** Waits for the first end; stops the group for every end but "exit" and "detach". */
async function superviseUntilEnd(proc: ShellProcess, options: ShellCommandOptions): Promise<End> {
  const timers: NodeJS.Timeout[] = [];
  let onAbort = () => {};
  const ended = await new Promise<End>((resolve) => {
    void proc.exited.then(() => resolve("exit"));
    timers.push(
      setTimeout(() => resolve(options.detachOnTimeout?.(proc) ? "detach" : "timeout"), options.timeoutMs),
    );
    if (options.detachAfterMs !== undefined)
      timers.push(setTimeout(() => resolve("detach"), options.detachAfterMs));
    onAbort = () => resolve("abort");
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener("abort", onAbort, { once: true });
    const inputWaitMs = options.inputWaitMs ?? 3000;
    if (inputWaitMs > 0) timers.push(watchForInputWait(proc, inputWaitMs, () => resolve("input")));
  });
  for (const timer of timers) clearTimeout(timer);
  options.signal.removeEventListener("abort", onAbort);
  if (ended !== "exit" && ended !== "detach") await proc.stop();
  return ended;
}

/**
 * Polls, once the command has been quiet for `quietMs`, what its processes are doing; reports
 * when two probes in a row find the group waiting for input (one probe can catch a pipeline
 * between two writes). Returns the interval timer.
 */
function watchForInputWait(proc: ShellProcess, quietMs: number, onWaiting: () => void): NodeJS.Timeout {
  let streak = 0;
  const pollMs = Math.max(100, Math.round(quietMs / 6));
  const timer = setInterval(() => {
    if (!proc.running || Date.now() - proc.lastOutputAt < quietMs) {
      streak = 0;
      return;
    }
    streak = probeGroupActivity(proc.pid) === "waiting-for-input" ? streak + 1 : 0;
    if (streak >= 2) {
      clearInterval(timer);
      onWaiting();
    }
  }, pollMs);
  return timer;
}

/**
 * Passes text on while under `charsPerSecond` in the current one-second window; the rest is
 * counted and announced once text is passed on again, or at `flush`.
 */
function throttle(write: (text: string) => void, charsPerSecond: number) {
  let windowStart = 0;
  let used = 0;
  let skipped = 0;
  const announce = () => {
    if (skipped === 0) return;
    write(`\n[... ${skipped} characters not shown ...]\n`);
    skipped = 0;
  };
  return {
    write: (text: string) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        used = 0;
        announce();
      }
      const room = charsPerSecond - used;
      if (room <= 0) {
        skipped += text.length;
        return;
      }
      const part = text.length <= room ? text : text.slice(0, room);
      used += part.length;
      write(part);
      skipped += text.length - part.length;
    },
    flush: announce,
  };
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

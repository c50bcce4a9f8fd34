import type { ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { HeadTailBuffer, type KeptOutput } from "./output-buffer.js";

export interface ShellProcessOptions {
  command: string;
  cwd: string;
  /** Shell run as `<shell> -c <command>`. */
  shell: string;
  env: NodeJS.ProcessEnv;
  /** Characters of output kept (head and tail), for the whole run and for each unread stretch. */
  maxOutputChars: number;
  /** Time between SIGTERM and SIGKILL when stopping. */
  killGraceMs: number;
  /**
   * A program that runs the shell for us, e.g. the sandbox: spawned as
   * `<command> ...args <shell> -c <command line>`.
   */
  launcher?: { command: string; args: readonly string[] };
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * How long to wait, after the shell exits, for its output pipes to close. A process the command
 * left running in the background can hold them open forever; its later output is not collected.
 */
const PIPE_DRAIN_MS = 250;

/**
 * A shell command running in its own process group (its pid is the group id) with stdin closed.
 * Output (stdout and stderr interleaved) is kept twice in bounded memory: everything since the
 * start, and everything since the last `takeUnread()`.
 */
export class ShellProcess {
  readonly pid: number;
  readonly command: string;
  readonly startedAt = Date.now();
  /** When output last arrived (the start time until then). */
  lastOutputAt = this.startedAt;
  /** Set once the shell has exited and its pipes have closed (or stopped draining). */
  exitStatus: ProcessExit | undefined;
  /** Resolves when `exitStatus` is set. Never rejects. */
  readonly exited: Promise<ProcessExit>;
  private all: HeadTailBuffer;
  private unread: HeadTailBuffer;
  private readonly listeners = new Set<(text: string) => void>();
  private stopping: Promise<ProcessExit> | undefined;

  constructor(
    child: ChildProcessByStdio<null, Readable, Readable>,
    private readonly options: ShellProcessOptions,
  ) {
    this.pid = child.pid!;
    this.command = options.command;
    this.all = new HeadTailBuffer(options.maxOutputChars);
    this.unread = new HeadTailBuffer(options.maxOutputChars);
    const onChunk = (text: string) => {
      this.lastOutputAt = Date.now();
      this.all.append(text);
      this.unread.append(text);
      for (const listener of this.listeners) listener(text);
    };
    child.stdout.setEncoding("utf8").on("data", onChunk);
    child.stderr.setEncoding("utf8").on("data", onChunk);
    this.exited = new Promise((resolve) => {
      let exit: ProcessExit | undefined;
      let drainTimer: NodeJS.Timeout | undefined;
      const finish = () => {
        if (exit === undefined || this.exitStatus !== undefined) return;
        clearTimeout(drainTimer);
        child.stdout.destroy();
        child.stderr.destroy();
        this.exitStatus = exit;
        resolve(exit);
      };
      child.on("exit", (code, signal) => {
        exit = { code, signal };
        drainTimer = setTimeout(finish, PIPE_DRAIN_MS);
      });
      child.on("close", finish);
    });
  }

  get running(): boolean {
    return this.exitStatus === undefined;
  }

  /** Calls `listener` with each chunk of output from now on; returns an unsubscribe function. */
  onOutput(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Everything since the start (head and tail). */
  output(): KeptOutput {
    return this.all.kept();
  }

  /** Characters of output held in memory, for both buffers together. */
  get retainedChars(): number {
    return this.all.retainedChars + this.unread.retainedChars;
  }

  /** Output since the previous call (head and tail), and starts a new unread stretch. */
  takeUnread(): KeptOutput {
    const kept = this.unread.kept();
    this.unread = new HeadTailBuffer(this.options.maxOutputChars);
    return kept;
  }

  /**
   * Stops the whole process group: SIGTERM, then SIGKILL after the grace time. Also signals the
   * group when the shell has already exited, for anything it left behind. Resolves on exit.
   */
  stop(): Promise<ProcessExit> {
    if (this.stopping) return this.stopping;
    signalGroup(this.pid, "SIGTERM");
    const kill = setTimeout(() => signalGroup(this.pid, "SIGKILL"), this.options.killGraceMs);
    kill.unref();
    this.stopping = this.exited.then((exit) => {
      if (!groupExists(this.pid)) clearTimeout(kill);
      return exit;
    });
    return this.stopping;
  }

  /** Synchronous SIGKILL of the group, for process exit. */
  killNow(): void {
    signalGroup(this.pid, "SIGKILL");
  }
}

/** Starts `options.command`. Rejects only when the shell cannot be started. */
export async function startShellProcess(options: ShellProcessOptions): Promise<ShellProcess> {
  // Loaded on first use: most starts never run a command before their first model request.
  const { spawn } = await import("node:child_process");
  const shellArgs = [options.shell, "-c", options.command];
  const [file, args] = options.launcher
    ? [options.launcher.command, [...options.launcher.args, ...shellArgs]]
    : [options.shell, shellArgs.slice(1)];
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  return new ShellProcess(child, options);
}

/**
 * Sends `signal` to the process group led by `pid`. ESRCH (no such group) and EPERM (the id now
 * belongs to someone else's group) both mean our group is gone, which is what stopping wants.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ESRCH" && code !== "EPERM") throw error;
  }
}

/** True while any process of the group led by `pid` exists (zombies included). */
export function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

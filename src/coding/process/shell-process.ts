import type { ChildProcessByStdio } from "node:child_process";
import os from "node:os";
import type { Readable } from "node:stream";
import { HeadTailBuffer, type KeptOutput } from "./output-buffer.js";
import { isSupervisor, listGroup } from "./process-group.js";

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
   * `<command> ...args <shell> -c <command line>`. It must keep the command in its process group,
   * exit when the command does, and report a command killed by signal N as exit code 128 + N
   * (as bubblewrap does).
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
        exit = options.launcher ? launcherExit(code, signal) : { code, signal };
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
   * group when the shell has already exited, for anything it left behind. Resolves once the shell
   * has exited and the group's last live process is gone (or a second past the SIGKILL).
   */
  stop(): Promise<ProcessExit> {
    if (this.stopping) return this.stopping;
    const killAt = Date.now() + this.options.killGraceMs;
    this.terminate();
    const kill = setTimeout(() => signalGroup(this.pid, "SIGKILL"), this.options.killGraceMs);
    kill.unref();
    this.stopping = this.exited.then(async (exit) => {
      await this.endLeftovers(killAt);
      clearTimeout(kill);
      return exit;
    });
    return this.stopping;
  }

  /**
   * After the shell's exit, ends what is left of its group: a launcher stopped before it started
   * the command (bubblewrap killed while it sets up) can leave the command running on its own.
   * SIGTERM at once, SIGKILL at `killAt`; waits while live processes remain (zombies, which
   * only their new parent can reap, do not count), at most a second past the SIGKILL.
   */
  private async endLeftovers(killAt: number): Promise<void> {
    const alive = () => (listGroup(this.pid)?.length ?? (groupExists(this.pid) ? 1 : 0)) > 0;
    if (!alive()) return;
    signalGroup(this.pid, "SIGTERM");
    let killed = false;
    while (alive() && Date.now() < killAt + 1000) {
      if (!killed && Date.now() >= killAt) {
        signalGroup(this.pid, "SIGKILL");
        killed = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * SIGTERM to the group. A launcher is spared while the command runs: it ends by itself once the
   * command has, and if it died first (bubblewrap with --die-with-parent) it would take every
   * process of the sandbox with it at once, leaving them no grace time. A process forked meanwhile
   * gets the SIGKILL.
   */
  private terminate(): void {
    const members = this.options.launcher ? listGroup(this.pid) : undefined;
    const targets = members?.filter((member) => member.pid !== this.pid && !isSupervisor(member)) ?? [];
    if (targets.length === 0) signalGroup(this.pid, "SIGTERM");
    for (const target of targets) signalProcess(target.pid, "SIGTERM");
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

/** Signal names by number; the first name wins over its aliases (SIGABRT, not SIGIOT). */
const SIGNAL_NAMES = new Map<number, NodeJS.Signals>();
for (const [name, number] of Object.entries(os.constants.signals)) {
  if (!SIGNAL_NAMES.has(number)) SIGNAL_NAMES.set(number, name as NodeJS.Signals);
}

/** The command's exit, from the exit of the launcher that ran it (128 + N: killed by signal N). */
function launcherExit(code: number | null, signal: NodeJS.Signals | null): ProcessExit {
  const name = code !== null && code > 128 ? SIGNAL_NAMES.get(code - 128) : undefined;
  return name ? { code: null, signal: name } : { code, signal };
}

/**
 * Sends `signal` to one process, or to a process group given as `-pgid`. ESRCH (none left) and
 * EPERM (the id now belongs to someone else) both mean ours is gone, which is what stopping wants.
 */
function signalProcess(target: number, signal: NodeJS.Signals | 0): void {
  try {
    process.kill(target, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ESRCH" && code !== "EPERM") throw error;
  }
}

/** Sends `signal` to the process group led by `pid` (see `signalProcess`). */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): void {
  signalProcess(-pid, signal);
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

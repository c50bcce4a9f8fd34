export interface HookProcessOptions {
  file: string;
  /** Written to the hook's stdin, which is then closed. */
  stdin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when stopping the hook's process group. */
  killGraceMs: number;
  signal?: AbortSignal;
}

export interface HookProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** stdout or stderr went past `MAX_HOOK_OUTPUT_CHARS`; the rest was dropped. */
  outputTooLarge: boolean;
  /** The hook could not be started. */
  startError?: Error;
}

export const MAX_HOOK_OUTPUT_CHARS = 1_000_000;

/** After the hook exits, how long its pipes may stay open (held by a process it left behind). */
const PIPE_DRAIN_MS = 250;

/**
 * Runs one hook in its own process group. At the timeout or an abort the whole group gets SIGTERM,
 * then SIGKILL after `killGraceMs`; the promise settles once the hook has exited. Never rejects.
 */
export async function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  // Loaded on first use, so start-up does not pay for it.
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    const result: HookProcessResult = {
      exitCode: null,
      signal: null,
      stdout: "",
      stderr: "",
      timedOut: false,
      aborted: false,
      outputTooLarge: false,
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.file, [], {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({ ...result, startError: error as Error });
      return;
    }
    let settled = false;
    let exited = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const collect = (stream: "stdout" | "stderr") => (chunk: string) => {
      const room = MAX_HOOK_OUTPUT_CHARS - result[stream].length;
      if (chunk.length > room) result.outputTooLarge = true;
      if (room > 0) result[stream] += chunk.slice(0, room);
    };
    child.stdout!.setEncoding("utf8").on("data", collect("stdout"));
    child.stderr!.setEncoding("utf8").on("data", collect("stderr"));
    // A hook may exit without reading its input; the broken pipe that causes is not a problem.
    child.stdin!.on("error", () => {});
    child.stdin!.end(options.stdin);

    const stop = () => {
      if (exited || child.pid === undefined) return;
      signalGroup(child.pid, "SIGTERM");
      killTimer = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), options.killGraceMs);
    };
    const timeout = setTimeout(() => {
      result.timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      result.aborted = true;
      stop();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (startError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout!.destroy();
      child.stderr!.destroy();
      resolve(startError ? { ...result, startError } : result);
    };
    child.on("error", (error) => finish(error));
    child.on("exit", (code, signal) => {
      exited = true;
      result.exitCode = code;
      result.signal = signal;
      // A stopped hook's group may still hold the pipes for a moment; a finished hook's leftovers may hold them forever.
      if (result.timedOut || result.aborted) signalGroup(child.pid!, "SIGKILL");
      drainTimer = setTimeout(() => finish(), PIPE_DRAIN_MS);
    });
    child.on("close", () => finish());
    if (options.signal?.aborted) onAbort();
  });
}

/** Signals the process group led by `pid`; ESRCH/EPERM mean the group is already gone. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ESRCH" && code !== "EPERM") throw error;
  }
}

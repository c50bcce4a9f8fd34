import type { KeptOutput } from "./output-buffer.js";
import type { ProcessExit, ShellProcess } from "./shell-process.js";

/** One command left running in the background, as `command_output` reports it. */
export interface BackgroundEntry {
  /** `bg-1`, `bg-2`, … in start order, unique within the registry. */
  id: string;
  command: string;
  pid: number;
  startedAt: number;
  running: boolean;
  /** Set once it has exited. */
  exit?: ProcessExit;
}

export interface BackgroundRegistryOptions {
  /** Running background commands allowed at once. Default 8. */
  maxRunning?: number;
}

/**
 * The commands a task left running, with their unread output. Owned by one task (one workspace):
 * the controller calls `disposeAll()` when the task ends. Should Bowline exit first, every group
 * still registered is killed with SIGKILL on the way out.
 */
export class BackgroundRegistry {
  private readonly entries = new Map<string, ShellProcess>();
  private nextId = 1;
  private readonly maxRunning: number;
  private readonly onExit = () => {
    for (const proc of this.entries.values()) proc.killNow();
  };

  constructor(options: BackgroundRegistryOptions = {}) {
    this.maxRunning = options.maxRunning ?? 8;
  }

  /** Why another command cannot be left running, or undefined when it can. */
  refusal(): string | undefined {
    const running = this.list().filter((entry) => entry.running).length;
    if (running < this.maxRunning) return undefined;
    return `${running} background commands are already running (the limit is ${this.maxRunning}); stop one with command_output action "stop" first.`;
  }

  /** Takes ownership of a running process; returns its id. */
  add(proc: ShellProcess): string {
    const id = `bg-${this.nextId++}`;
    if (this.entries.size === 0) process.on("exit", this.onExit);
    this.entries.set(id, proc);
    return id;
  }

  get(id: string): BackgroundEntry | undefined {
    const proc = this.entries.get(id);
    return proc && describe(id, proc);
  }

  list(): BackgroundEntry[] {
    return [...this.entries].map(([id, proc]) => describe(id, proc));
  }

  /** Output since the previous read (head and tail), or undefined for an unknown id. */
  read(id: string): { entry: BackgroundEntry; output: KeptOutput; process: ShellProcess } | undefined {
    const proc = this.entries.get(id);
    if (!proc) return undefined;
    // Take the output after the state, so output that arrives in between is never lost.
    const entry = describe(id, proc);
    return { entry, output: proc.takeUnread(), process: proc };
  }

  /** Stops the command's whole process group; resolves once the shell has exited. */
  async stop(id: string): Promise<BackgroundEntry | undefined> {
    const proc = this.entries.get(id);
    if (!proc) return undefined;
    await proc.stop();
    return describe(id, proc);
  }

  /** Stops every process group still registered and forgets them all. Never rejects. */
  async disposeAll(): Promise<void> {
    const procs = [...this.entries.values()];
    this.entries.clear();
    process.off("exit", this.onExit);
    await Promise.all(procs.map((proc) => proc.stop()));
  }
}

function describe(id: string, proc: ShellProcess): BackgroundEntry {
  const entry: BackgroundEntry = {
    id,
    command: proc.command,
    pid: proc.pid,
    startedAt: proc.startedAt,
    running: proc.running,
  };
  if (proc.exitStatus) entry.exit = proc.exitStatus;
  return entry;
}

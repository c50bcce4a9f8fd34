import type { Event } from "../../protocol/index.js";
import type { TuiSession } from "./controller.js";
import { type RunTuiOptions, runTui } from "./run-tui.js";

/**
 * The TUI as the CLI uses it: created before the session (whose creation already emits
 * events, which are kept until the TUI shows them), run once the session exists.
 */
export function createTuiHost() {
  const early: Event[] = [];
  let listener: ((event: Event) => void) | undefined;
  const subscribe = (next: (event: Event) => void) => {
    listener = next;
    for (const event of early.splice(0)) next(event);
    return () => {
      listener = undefined;
    };
  };
  return {
    /** The session's `emit`. */
    emit(event: Event): void {
      if (listener) listener(event);
      else early.push(event);
    },
    /**
     * Runs the TUI until the person leaves; resolves with the CLI's exit code (0 when the task
     * completed or never started, 1 when it failed, 130 when it was stopped) and, when the
     * person chose another stored task with `/resume`, its id, or `newTask` when they started
     * a new one with `/clear` (the CLI opens it next).
     */
    async run(
      session: TuiSession,
      options: Omit<RunTuiOptions, "session" | "subscribe">,
    ): Promise<{ code: number; resume?: string; newTask?: boolean }> {
      const { status, ...next } = await runTui({ ...options, session, subscribe });
      const code = status === "failed" ? 1 : status === "aborted" ? 130 : 0;
      return { code, ...next };
    },
  };
}

export type TuiHost = ReturnType<typeof createTuiHost>;

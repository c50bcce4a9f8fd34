import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** Why a request to a server did not get an answer. */
export type McpFailureReason = "unavailable" | "crashed" | "timeout" | "aborted";

/** A request that failed because of the server or its connection, not the tool. */
export class McpServerError extends Error {
  constructor(
    message: string,
    readonly reason: McpFailureReason,
  ) {
    super(message);
    this.name = "McpServerError";
  }
}

export function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** Resolves when one of `waiters` is called, `signal` aborts or `ms` pass, whichever is first. */
export function wake(waiters: Array<() => void>, signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timeout);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timeout = setTimeout(done, ms);
    waiters.push(done);
    signal.addEventListener("abort", done, { once: true });
  });
}

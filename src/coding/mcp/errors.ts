/** JSON-RPC error code of a request the SDK gave up waiting for (its ErrorCode.RequestTimeout). */
const REQUEST_TIMEOUT = -32001;

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

/** A request timeout of the SDK (an McpError; its class is not imported, so the SDK loads lazily). */
export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === REQUEST_TIMEOUT;
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

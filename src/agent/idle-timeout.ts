import type { LlmEvent } from "../llm/types.js";

/** Default: five minutes without a byte (reasoning models can think silently for minutes). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 5 * 60_000;

/**
 * Passes a model stream through, but ends it with a retryable error when no event arrives for
 * `idleMs` (a stalled connection would otherwise hang the task forever). On a stall it aborts
 * the request through `abortRequest`, so the SDK lets go of the connection.
 */
export async function* withIdleTimeout(
  events: AsyncIterable<LlmEvent>,
  idleMs: number,
  abortRequest: () => void,
): AsyncGenerator<LlmEvent> {
  const iterator = events[Symbol.asyncIterator]();
  // One timer for the whole stream, restarted before each wait (a stream has thousands of
  // events); only the wait for the next event counts, not the time the consumer takes.
  let onStall: ((value: "stalled") => void) | undefined;
  const timer = setTimeout(() => onStall?.("stalled"), idleMs);
  try {
    while (true) {
      timer.refresh();
      const next = await new Promise<IteratorResult<LlmEvent> | "stalled">((resolve, reject) => {
        onStall = resolve;
        iterator.next().then(resolve, reject);
      });
      onStall = undefined;
      if (next === "stalled") {
        abortRequest();
        // The adapter ends once the abort reaches the SDK; nothing it says now matters.
        iterator.return?.().catch(() => {});
        yield {
          type: "error",
          message: `the model stream stalled: no data for ${Math.round(idleMs / 1000)}s`,
          retryable: true,
        };
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
  }
}

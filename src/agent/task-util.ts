import type { LlmUsage } from "../llm/types.js";
import type { ToolCallOutcome } from "./tool-executor.js";

export const ZERO_USAGE: LlmUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

export function refuseCompletion(callId: string, text: string): ToolCallOutcome {
  return {
    result: { type: "tool_result", callId, content: [{ type: "text", text }], isError: true },
    mistake: false,
  };
}

export function addUsage(total: LlmUsage, add: LlmUsage): void {
  total.inputTokens += add.inputTokens;
  total.outputTokens += add.outputTokens;
  total.cacheReadTokens += add.cacheReadTokens;
  total.cacheWriteTokens += add.cacheWriteTokens;
}

/** Resolves after `ms`, or as soon as `signal` aborts; leaves no listener on the signal behind. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * A signal for one request, aborted with its parent: what the SDK hangs on it (listeners that
 * hold the request and response) goes away with the request instead of piling up on the
 * task's signal. Call `unlink` when the request is over.
 */
export function linkedSignal(parent: AbortSignal): { signal: AbortSignal; unlink(): void } {
  const child = new AbortController();
  const abort = () => child.abort();
  parent.addEventListener("abort", abort, { once: true });
  if (parent.aborted) child.abort();
  return { signal: child.signal, unlink: () => parent.removeEventListener("abort", abort) };
}

import type { LlmUsage, ModelPrices } from "../llm/types.js";
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

/** Usage with a running cost: `costUsd` is present once any priced usage was added. */
export type PricedUsage = LlmUsage & { costUsd?: number };

export function addUsage(total: PricedUsage, add: PricedUsage): void {
  total.inputTokens += add.inputTokens;
  total.outputTokens += add.outputTokens;
  total.cacheReadTokens += add.cacheReadTokens;
  total.cacheWriteTokens += add.cacheWriteTokens;
  if (add.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + add.costUsd;
}

/**
 * The usage with its cost in US dollars. Cache reads and writes without a price of their own
 * cost as much as plain input.
 */
export function withCost(usage: LlmUsage, prices: ModelPrices | undefined): PricedUsage {
  if (!prices) return { ...usage };
  const dollars =
    usage.inputTokens * prices.input +
    usage.outputTokens * prices.output +
    usage.cacheReadTokens * (prices.cacheRead ?? prices.input) +
    usage.cacheWriteTokens * (prices.cacheWrite ?? prices.input);
  return { ...usage, costUsd: dollars / 1_000_000 };
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
export function linkedSignal(parent: AbortSignal): { signal: AbortSignal; abort(): void; unlink(): void } {
  const child = new AbortController();
  const abort = () => child.abort();
  parent.addEventListener("abort", abort, { once: true });
  if (parent.aborted) child.abort();
  return { signal: child.signal, abort, unlink: () => parent.removeEventListener("abort", abort) };
}

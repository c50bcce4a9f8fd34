/**
 * When and how long to wait before retrying a failed model request, and the countdown the
 * person sees while waiting.
 */
import { sleep } from "./task-util.js";
import type { UiMessageLog } from "./ui-messages.js";

export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  attempts: number;
  /** The first back-off; each further retry doubles it. */
  baseDelayMs: number;
  /** No back-off is longer than this (a provider's `retry-after` may be, up to MAX_RETRY_AFTER_MS). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** A provider asking to wait longer than this is reported instead of waited for. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * The wait before retry number `attempt + 1`: exponential back-off with up to 25% added jitter
 * (so clients that failed together do not retry together), capped; a provider's `retry-after`
 * wins when it asks for longer. Undefined when the wait asked for is too long to be worth it.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) return undefined;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = Math.min(policy.maxDelayMs, Math.round(backoff * (1 + 0.25 * random())));
  return Math.max(jittered, retryAfterMs ?? 0);
}

export interface RetryNotice {
  /** 1-based number of the retry about to happen. */
  attempt: number;
  attempts: number;
  message: string;
  status?: number;
}

/**
 * Waits `delayMs`, showing an `api_retry` message whose `secondsLeft` counts down once a
 * second; ends early (without error) when `signal` aborts.
 */
export async function retryCountdown(
  ui: UiMessageLog,
  notice: RetryNotice,
  delayMs: number,
  signal: AbortSignal,
): Promise<void> {
  const until = Date.now() + delayMs;
  const payload = (secondsLeft: number) => ({
    say: "api_retry" as const,
    ...notice,
    delayMs,
    secondsLeft,
  });
  let row = ui.say(payload(Math.ceil(delayMs / 1000)), true);
  while (!signal.aborted) {
    const left = until - Date.now();
    if (left <= 0) break;
    await sleep(left % 1000 || 1000, signal);
    row = ui.update(row, payload(Math.max(0, Math.ceil((until - Date.now()) / 1000))), true);
  }
  ui.update(row, payload(0), false);
}

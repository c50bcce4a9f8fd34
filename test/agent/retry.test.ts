import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, retryDelayMs } from "../../src/agent/retry.js";

const policy = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 8000 };

describe("retryDelayMs", () => {
  it("doubles each attempt, adds at most 25% jitter, and stops at the cap", () => {
    expect([0, 1, 2, 3, 4].map((n) => retryDelayMs(policy, n, undefined, () => 0))).toEqual([
      1000, 2000, 4000, 8000, 8000,
    ]);
    expect(retryDelayMs(policy, 1, undefined, () => 1)).toBe(2500);
    expect(retryDelayMs(policy, 3, undefined, () => 1)).toBe(8000);
  });

  it("waits at least as long as retry-after asks, even past the cap", () => {
    expect(retryDelayMs(policy, 0, 20_000, () => 0)).toBe(20_000);
    expect(retryDelayMs(policy, 2, 100, () => 0)).toBe(4000);
  });

  it("gives up when retry-after asks for too long", () => {
    expect(retryDelayMs(policy, 0, MAX_RETRY_AFTER_MS + 1)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { benchCompaction } from "../../../bench/compaction.js";

describe("compaction session (reduced size; `npm run bench` plays 300 turns)", () => {
  it("never sends a request over the window of a 32k model, and each summary request extends the last request", async () => {
    const result = await benchCompaction({ turns: 80 });
    expect(result.met).toEqual({
      neverOverWindow: true,
      estimatesWithinWindow: true,
      compacted: true,
      summaryRequestsExtendPrevious: true,
    });
    expect(result.compactions.summary).toBeGreaterThan(3);
    expect(result.compactions.truncation).toBe(0);
    expect(result.maxRequestTokens).toBeLessThanOrEqual(result.contextWindow);
  });

  it("holds when the provider counts 30% more tokens than the estimator", async () => {
    const result = await benchCompaction({ turns: 80, providerRatio: 1.3 });
    expect(result.met.neverOverWindow).toBe(true);
  });
});

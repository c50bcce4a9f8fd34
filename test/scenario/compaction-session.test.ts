/**
 * Compaction through the real loop at a reduced size (300 turns run in `npm run bench`): on a
 * small-window model no request passes the window, and summary requests read the prompt cache.
 */
import { describe, expect, it } from "vitest";
import { runCompactionSession } from "../support/compaction-session.js";

describe("a long session on a 16k-token model", () => {
  it("never sends a request over the window, and its summaries hit the cache", async () => {
    const result = await runCompactionSession({ turns: 60, contextWindow: 16_000 });

    expect(result.status).toBe("completed");
    expect(result.summaries).toBeGreaterThan(0);
    expect(result.largestRequest).toBeLessThanOrEqual(16_000);
    for (const share of result.summaryCacheShare) expect(share).toBeGreaterThan(0.5);
  }, 60_000);
});

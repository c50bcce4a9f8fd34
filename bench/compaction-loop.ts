import { runCompactionSession } from "../test/support/compaction-session.js";
import { round } from "./support.js";

/**
 * Issue 6's compaction target through the real loop: a scripted 300-turn session on a 32k-token
 * model never sends a request over the window, and each summary request reads the prompt cache
 * (the fake server counts tokens and cache hits by Anthropic's rules).
 */
export async function benchCompactionLoop(turns = 300, contextWindow = 32_000) {
  const result = await runCompactionSession({ turns, contextWindow });
  const minShare = Math.min(...result.summaryCacheShare);
  return {
    turns,
    contextWindow,
    requests: result.requests,
    largestRequest: result.largestRequest,
    summaries: result.summaries,
    summaryCacheShareMin: round(minShare, 3),
    met: {
      completed: result.status === "completed",
      neverOverWindow: result.largestRequest <= contextWindow,
      summariesHitCache: result.summaries > 0 && minShare > 0.5,
    },
  };
}

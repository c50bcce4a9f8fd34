/**
 * A long session on a small-window model through the real loop (Anthropic adapter, fake server
 * counting tokens and prompt-cache hits by Anthropic's rules): the context manager must keep every
 * request inside the window, and its summary requests must read the cache. Used by a test (short)
 * and the benchmark (300 turns on a 32k model).
 */
import { call, closeHarnesses, finishTurn, startHarness } from "../agent/task-harness.js";

const SUMMARY_MARK = "[Context compaction]";

export async function runCompactionSession(options: { turns: number; contextWindow: number }) {
  let turn = 0;
  const h = await startHarness(
    (request) => {
      const last = JSON.stringify(request.body.messages.at(-1));
      if (last.includes(SUMMARY_MARK)) {
        return {
          text: `SUMMARY after turn ${turn}: echoing long texts; all earlier echoes done; next, go on.`,
        };
      }
      turn++;
      if (turn >= options.turns) return finishTurn();
      // Tool outputs of varied size, as reads and command outputs are.
      const words = 40 + ((turn * 37) % 400);
      return {
        text: `Step ${turn}.`,
        toolCalls: [call("echo", { text: `${turn} ${"lorem ipsum ".repeat(words)}` })],
      };
    },
    {
      promptCache: true,
      systemPrompt: `You are under test. ${"Follow the rules of the project carefully. ".repeat(120)}`,
      modelInfo: { contextWindow: options.contextWindow, maxOutputTokens: 4096 },
    },
  );
  try {
    const outcome = await h.task.start("Echo many long texts.");
    const requests = h.server.requests.map((r) => {
      const u = r.promptCache!;
      const summary = JSON.stringify(r.body.messages.at(-1)).includes(SUMMARY_MARK);
      return {
        tokens: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens,
        cacheRead: u.cacheReadTokens,
        summary,
      };
    });
    const summaries = requests.filter((r) => r.summary);
    return {
      status: outcome.status,
      requests: requests.length,
      largestRequest: Math.max(...requests.map((r) => r.tokens)),
      summaries: summaries.length,
      summaryCacheShare: summaries.map((r) => r.cacheRead / r.tokens),
    };
  } finally {
    await closeHarnesses();
  }
}

/**
 * Prompt caching: the fake server's model of Anthropic's caching rules, and the Anthropic
 * adapter's breakpoints measured with it over a long task.
 */
import { afterEach, describe, expect, it } from "vitest";
import { call, closeHarnesses, finishTurn, startHarness } from "../agent/task-harness.js";
import { AnthropicPromptCache, LOOKBACK_BLOCKS } from "../support/anthropic-prompt-cache.js";

afterEach(closeHarnesses);

const big = (tag: string) => `${tag} ${"lorem ipsum dolor sit amet ".repeat(200)}`;
const marked = (text: string) => ({ type: "text", text, cache_control: { type: "ephemeral" } });
const plain = (text: string) => ({ type: "text", text });

describe("the prompt cache model", () => {
  it("writes at a breakpoint and reads the same prefix next time", () => {
    const cache = new AnthropicPromptCache();
    const body = {
      model: "m",
      system: [marked(big("system"))],
      messages: [{ role: "user", content: [plain("hi")] }],
    };
    const first = cache.account(body);
    expect(first.cacheReadTokens).toBe(0);
    expect(first.cacheWriteTokens).toBeGreaterThan(1024);
    const second = cache.account(body);
    expect(second.cacheReadTokens).toBe(first.cacheWriteTokens);
    expect(second.cacheWriteTokens).toBe(0);
    expect(second.inputTokens).toBe(first.inputTokens);
  });

  it("never caches a prefix under the minimum length", () => {
    const cache = new AnthropicPromptCache();
    const body = {
      model: "m",
      system: [marked("short")],
      messages: [{ role: "user", content: [plain("hi")] }],
    };
    cache.account(body);
    expect(cache.account(body).cacheReadTokens).toBe(0);
  });

  it("finds an earlier write within the lookback window, and not beyond it", () => {
    const history = (n: number, mark: number) => ({
      model: "m",
      messages: [
        {
          role: "user",
          content: Array.from({ length: n }, (_, i) =>
            i === mark ? marked(big(`b${i}`)) : plain(big(`b${i}`)),
          ),
        },
      ],
    });
    const near = new AnthropicPromptCache();
    near.account(history(3, 2));
    expect(
      near.account(history(3 + LOOKBACK_BLOCKS - 1, 2 + LOOKBACK_BLOCKS - 1)).cacheReadTokens,
    ).toBeGreaterThan(0);
    const far = new AnthropicPromptCache();
    far.account(history(3, 2));
    expect(far.account(history(3 + LOOKBACK_BLOCKS + 5, 2 + LOOKBACK_BLOCKS + 5)).cacheReadTokens).toBe(0);
  });

  it("rejects more than four breakpoints", () => {
    const cache = new AnthropicPromptCache();
    const content = Array.from({ length: 5 }, (_, i) => marked(`b${i}`));
    expect(() => cache.account({ model: "m", messages: [{ role: "user", content }] })).toThrow(
      /maximum of 4/,
    );
  });
});

describe("the Anthropic adapter's breakpoints", () => {
  const shareOf = (u: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }) =>
    u.cacheReadTokens / (u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens);

  it("serve over 90% of input from the cache from turn 3 on", async () => {
    const turns = 20;
    const script = Array.from({ length: turns - 1 }, (_, i) => ({
      text: `Step ${i}.`,
      toolCalls: [call("echo", { text: `turn ${i}` })],
    }));
    const h = await startHarness([...script, finishTurn()], {
      promptCache: true,
      systemPrompt: big("system"),
    });
    const outcome = await h.task.start("Echo many things.");

    expect(outcome.status).toBe("completed");
    const shares = h.server.requests.map((r) => shareOf(r.promptCache!));
    expect(shares).toHaveLength(turns);
    expect(Math.min(...shares.slice(2))).toBeGreaterThan(0.9);
    // The adapter's usage reports what the server counted.
    expect(h.task.usage.cacheReadTokens).toBe(
      h.server.requests.reduce((sum, r) => sum + r.promptCache!.cacheReadTokens, 0),
    );
  });

  it("read everything the previous turn cached, even after a turn longer than the lookback window", async () => {
    const script = Array.from({ length: 6 }, (_, i) => ({
      toolCalls: Array.from({ length: i === 2 ? LOOKBACK_BLOCKS + 5 : 1 }, (_, j) =>
        call("echo", { text: `turn ${i} call ${j}` }),
      ),
    }));
    const h = await startHarness([...script, finishTurn()], {
      promptCache: true,
      systemPrompt: big("system"),
    });
    await h.task.start("Echo in bulk.");

    const usage = h.server.requests.map((r) => r.promptCache!);
    for (let i = 1; i < usage.length; i++) {
      expect(usage[i]!.cacheReadTokens).toBe(usage[i - 1]!.cacheReadTokens + usage[i - 1]!.cacheWriteTokens);
    }
  });
});

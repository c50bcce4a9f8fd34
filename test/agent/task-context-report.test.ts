/**
 * `task.contextReport()` on a real run: the parts of what the task would send next, the
 * provider's count of the last request, and the window of the task's model.
 */
import { afterEach, describe, expect, it } from "vitest";
import { estimateMessagesTokens, estimateTextTokens } from "../../src/agent/context/index.js";
import { call, closeHarnesses, finishTurn, startHarness } from "./task-harness.js";

afterEach(closeHarnesses);

describe("task.contextReport", () => {
  it("reports the conversation so far by part, with the last request's counted prompt", async () => {
    const h = await startHarness(
      [
        { text: "Echoing.", toolCalls: [call("echo", { text: "hello" })], usage: { inputTokens: 700 } },
        { ...finishTurn("done"), usage: { inputTokens: 300, cacheReadTokens: 650, outputTokens: 20 } },
      ],
      {
        systemPrompt: "You are under test, with a longer system prompt.",
        modelInfo: { contextWindow: 64_000, maxOutputTokens: 4000 },
      },
    );
    const before = h.task.contextReport();
    expect(before.lastPromptTokens).toBeUndefined();
    expect(before.messages).toBe(0);

    await h.task.start("Echo hello.");
    const report = h.task.contextReport();
    const names = report.parts.map((part) => part.name);

    expect(report.lastPromptTokens).toBe(950);
    expect(report.contextWindow).toBe(64_000);
    expect(report.messages).toBe(h.task.history.length);
    expect(names).toEqual(["system prompt", "tools", "user messages", "assistant messages", "tool results"]);
    expect(report.parts[0]!.tokens).toBe(
      estimateTextTokens("You are under test, with a longer system prompt."),
    );
    const conversation = report.parts.slice(2).reduce((sum, part) => sum + part.tokens, 0);
    expect(conversation).toBe(estimateMessagesTokens(h.task.history));
    expect(report.compactAtTokens).toBeLessThan(64_000);
  });
});

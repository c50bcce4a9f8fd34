/** Budgets: a task that reaches one pauses with a question (interactive) or stops (print mode). */
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../src/protocol/index.js";
import { call, closeHarnesses, finishTurn, startHarness } from "./task-harness.js";

afterEach(closeHarnesses);

const usage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 };
const echo = (text: string) => ({ toolCalls: [call("echo", { text })], usage });
const isLimitAsk = (e: Event) =>
  e.type === "ask" && e.message.type === "ask" && e.message.payload.ask === "limit_reached";

describe("budgets", () => {
  it("stop a print-mode task at the request limit before the next request", async () => {
    const h = await startHarness([echo("1"), echo("2"), echo("3"), finishTurn()], { limits: { turns: 2 } });
    const outcome = await h.task.start("Echo.");

    expect(outcome).toMatchObject({ status: "failed", code: "budget_exhausted" });
    expect(outcome.status === "failed" && outcome.message).toContain("limit of 2 model requests");
    expect(h.server.requests).toHaveLength(2);
    // The last results stay paired with their calls in the history.
    expect(h.task.history.at(-1)!.content[0]).toMatchObject({ type: "tool_result" });
  });

  it("pause an interactive task with a question; yes grants another budget's worth", async () => {
    const h = await startHarness([echo("1"), echo("2"), echo("3"), echo("4"), finishTurn()], {
      interactive: true,
      limits: { tokens: 2000 },
    });
    const run = h.task.start("Echo.");
    const ask = await h.nextEvent(isLimitAsk);
    expect(h.server.requests).toHaveLength(2);
    expect(ask.type === "ask" && ask.message.type === "ask" && ask.message.payload).toMatchObject({
      message: expect.stringContaining("token budget (2,000 tokens)"),
    });
    h.task.answer(ask.type === "ask" ? ask.message.id : "", { response: "approve" });
    const second = await h.nextEvent((e) => isLimitAsk(e) && e !== ask);
    expect(h.server.requests).toHaveLength(4);
    h.task.answer(second.type === "ask" ? second.message.id : "", { response: "deny" });

    expect(await run).toMatchObject({ status: "failed", code: "budget_exhausted" });
  });

  it("of money count the priced usage", async () => {
    const h = await startHarness([echo("1"), echo("2"), finishTurn()], {
      limits: { costUsd: 0.004 },
      prices: { input: 3, output: 15 },
    });
    const outcome = await h.task.start("Echo.");
    // 1000×3 + 100×15 = $0.0045 after the first request.
    expect(outcome).toMatchObject({ status: "failed", code: "budget_exhausted" });
    expect(h.server.requests).toHaveLength(1);
  });
});

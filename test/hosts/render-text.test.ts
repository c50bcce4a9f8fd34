import { describe, expect, it } from "vitest";
import { formatUsage } from "../../src/hosts/cli/format-usage.js";
import { createTextRenderer } from "../../src/hosts/cli/render-text.js";
import { type Event, formatCost, formatTokens, type UiMessage } from "../../src/protocol/index.js";

describe("usage lines", () => {
  it("show tokens in and out, the cache's share and the cost", () => {
    expect(
      formatUsage({
        inputTokens: 2000,
        outputTokens: 1900,
        cacheReadTokens: 44_000,
        cacheWriteTokens: 2200,
        costUsd: 0.0412,
      }),
    ).toBe("Tokens: 48k in · 91% from cache · 1.9k out · $0.0412");
  });

  it("leave out what is unknown or zero", () => {
    expect(formatUsage({ inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(
      "Tokens: 120 in · 30 out",
    );
  });

  it("round sensibly", () => {
    expect([999, 1234, 12_345, 2_500_000].map(formatTokens)).toEqual(["999", "1.2k", "12k", "2.50M"]);
    expect([0.00042, 0.5, 3.4].map(formatCost)).toEqual(["$0.0004", "$0.5000", "$3.40"]);
  });
});

describe("the text renderer", () => {
  const say = (id: string, payload: any, partial?: boolean): UiMessage => ({
    id,
    ts: 0,
    type: "say",
    payload,
    partial,
  });

  it("shows a retry once, when its countdown starts, and the task's usage when it ends", () => {
    const lines: string[] = [];
    const render = createTextRenderer((line) => lines.push(line));
    const retry = {
      say: "api_retry",
      attempt: 1,
      attempts: 4,
      message: "HTTP 529: Overloaded",
      delayMs: 2000,
    };
    render({ type: "ui_message_added", message: say("r1", { ...retry, secondsLeft: 2 }, true) });
    render({ type: "ui_message_updated", message: say("r1", { ...retry, secondsLeft: 1 }, true) });
    render({ type: "ui_message_updated", message: say("r1", { ...retry, secondsLeft: 0 }) });
    const usage = {
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 90,
      cacheWriteTokens: 0,
      costUsd: 0.001,
    };
    const state = (status: string): Event =>
      ({ type: "state", taskId: "t", status, usage, model: "m", mode: "act" }) as Event;
    render(state("running"));
    render(state("completed"));

    expect(lines).toEqual([
      "  · HTTP 529: Overloaded; retrying in 2s (retry 1 of 4)",
      "  Tokens: 100 in · 90% from cache · 5 out · $0.0010",
    ]);
  });
});

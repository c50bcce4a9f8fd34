/**
 * Provider faults in the agent loop (real Anthropic adapter, fake model server): each retryable
 * fault is retried with back-off and a countdown, the partial reply is dropped (no tool runs
 * twice, the history holds no half message), and the faults that must not be retried are
 * reported. Costs are reported per request and per task.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../src/protocol/index.js";
import type { ScriptedTurn } from "../support/fake-model-server.js";
import { call, closeHarnesses, finishTurn, startHarness } from "./task-harness.js";

afterEach(closeHarnesses);

const retryMessages = (events: Event[]) =>
  events.flatMap((e) =>
    (e.type === "ui_message_added" || e.type === "ui_message_updated") &&
    e.message.type === "say" &&
    e.message.payload.say === "api_retry"
      ? [{ ...e.message.payload, partial: e.message.partial === true, id: e.message.id }]
      : [],
  );

const echoThenFinish = (): ScriptedTurn[] => [{ toolCalls: [call("echo", { text: "once" })] }, finishTurn()];

describe.each<{ name: string; fault: ScriptedTurn["fault"] }>([
  { name: "HTTP 500", fault: { kind: "http", status: 500 } },
  { name: "HTTP 529 overloaded", fault: { kind: "http", status: 529, message: "Overloaded" } },
  { name: "HTTP 429", fault: { kind: "http", status: 429 } },
  { name: "a connection reset before the response", fault: { kind: "reset" } },
  { name: "a connection reset mid-stream", fault: { kind: "drop", afterChunks: 5 } },
  { name: "a truncated stream", fault: { kind: "truncate", afterChunks: 5 } },
  { name: "a stalled stream", fault: { kind: "stall", afterChunks: 3 } },
])("$name", ({ fault }) => {
  it("is retried; the tool in the failed reply runs once, and the history holds no half message", async () => {
    const [first, last] = echoThenFinish();
    const h = await startHarness([{ ...first, text: "Let me echo.", fault }, first!, last!], {
      streamIdleTimeoutMs: 300,
    });
    const outcome = await h.task.start("Echo once.");

    expect(outcome).toEqual({ status: "completed", result: "done" });
    expect(h.log).toEqual(["echo:once", "finish:done"]);
    expect(h.server.requests).toHaveLength(3);
    // The retry sent the same conversation again.
    expect(h.server.requests[1]!.body.messages).toEqual(h.server.requests[0]!.body.messages);
    expect(h.task.history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    // The assistant message is the successful reply only.
    expect(h.task.history[1]!.content.filter((b) => b.type === "tool_call")).toHaveLength(1);
    const retries = retryMessages(h.events);
    expect(retries.at(-1)).toMatchObject({ attempt: 1, attempts: 2, secondsLeft: 0, partial: false });
  });
});

describe("retry-after", () => {
  it("is honoured over a shorter back-off, and the countdown shows the wait", async () => {
    const h = await startHarness([
      { fault: { kind: "http", status: 429, message: "slow down", retryAfterSeconds: 2 } },
      finishTurn(),
    ]);
    const outcome = await h.task.start("Go.");

    expect(outcome.status).toBe("completed");
    const [first, second] = h.server.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1900);
    const retries = retryMessages(h.events);
    expect(retries[0]).toMatchObject({ delayMs: 2000, secondsLeft: 2, status: 429, partial: true });
    expect(retries[0]!.message).toContain("slow down");
    // It counted down once a second, on one message, and ended at zero.
    expect(new Set(retries.map((r) => r.id)).size).toBe(1);
    expect(retries.map((r) => r.secondsLeft)).toEqual([2, 1, 0, 0]);
  });

  it("longer than five minutes is reported instead of waited for", async () => {
    const h = await startHarness([
      { fault: { kind: "http", status: 429, retryAfterSeconds: 3600 } },
      finishTurn(),
    ]);
    const outcome = await h.task.start("Go.");

    expect(outcome).toMatchObject({ status: "failed", code: "provider_error" });
    expect(h.server.requests).toHaveLength(1);
  });
});

describe("faults that are not retried", () => {
  it("a refused key (401) fails at once", async () => {
    const h = await startHarness([{ fault: { kind: "http", status: 401, message: "invalid x-api-key" } }]);
    const outcome = await h.task.start("Go.");

    expect(outcome).toMatchObject({ status: "failed", code: "provider_error" });
    expect(h.server.requests).toHaveLength(1);
    expect(retryMessages(h.events)).toEqual([]);
  });

  it("the retries give up after the policy's attempts", async () => {
    const h = await startHarness(() => ({ fault: { kind: "http", status: 503 } }), {
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 10 },
    });
    const outcome = await h.task.start("Go.");

    expect(outcome).toMatchObject({ status: "failed", code: "provider_error" });
    expect(h.server.requests).toHaveLength(4);
    expect(h.task.history.map((m) => m.role)).toEqual(["user"]);
  });
});

describe("invalid JSON in tool arguments", () => {
  it("is not executed; the model is told, and can correct itself", async () => {
    const h = await startHarness([
      { toolCalls: [{ name: "echo", rawArguments: '{"text": "half' }] },
      { toolCalls: [call("echo", { text: "fixed" })] },
      finishTurn(),
    ]);
    const outcome = await h.task.start("Echo.");

    expect(outcome.status).toBe("completed");
    expect(h.log).toEqual(["echo:fixed", "finish:done"]);
    const results = h.server.requests[1]!.body.messages.at(-1).content;
    expect(results[0]).toMatchObject({ type: "tool_result", is_error: true });
    expect(JSON.stringify(results[0].content)).toMatch(/JSON|arguments/i);
  });
});

describe("context overflow", () => {
  const overflow = (tokens: number): ScriptedTurn => ({
    fault: { kind: "http", status: 400, message: `prompt is too long: ${tokens} tokens > 200000 maximum` },
  });

  it("compacts the history to fit what the refusal revealed, and goes on", async () => {
    const script: ScriptedTurn[] = [
      ...["a", "b", "c", "d"].map((text) => ({ toolCalls: [call("echo", { text })] })),
      overflow(210_000),
      finishTurn(),
    ];
    const h = await startHarness(script);
    const outcome = await h.task.start("Echo a lot.");

    expect(outcome.status).toBe("completed");
    const [refused, retried] = h.server.requests.slice(4);
    expect(refused!.body.messages).toHaveLength(9);
    const sent = retried!.body.messages;
    expect(sent.length).toBeLessThan(9);
    expect(sent.length % 2).toBe(1);
    expect(JSON.stringify(sent[0])).toContain("Echo a lot.");
    expect(sent[1].role).toBe("assistant");
    expect(sent.at(-1)).toEqual(refused!.body.messages.at(-1));
    const notices = h.events.filter(
      (e) => e.type === "ui_message_added" && e.message.type === "say" && e.message.payload.say === "notice",
    );
    expect(JSON.stringify(notices)).toContain("Context compacted");
  });

  it("is reported when the compacted request overflows again", async () => {
    const h = await startHarness([overflow(300_000), overflow(300_000), finishTurn()]);
    const outcome = await h.task.start("A huge task.");

    expect(outcome).toMatchObject({ status: "failed", code: "provider_error" });
    expect(h.server.requests).toHaveLength(2);
  });
});

describe("compaction before the window fills", () => {
  it("summarises with a request that extends the last one, then sends the shorter history", async () => {
    const isSummaryRequest = (body: any) =>
      JSON.stringify(body.messages.at(-1)).includes("[Context compaction]");
    let echoes = 0;
    const h = await startHarness(
      (request) => {
        if (isSummaryRequest(request.body)) return { text: "SUMMARY: echoing long texts; keep going." };
        if (echoes++ < 12) return { toolCalls: [call("echo", { text: `${echoes} ${"word ".repeat(300)}` })] };
        return finishTurn();
      },
      { modelInfo: { contextWindow: 8000, maxOutputTokens: 1000 } },
    );
    const outcome = await h.task.start("Echo long texts.");

    expect(outcome.status).toBe("completed");
    const bodies = h.server.requests.map((r) => r.body);
    const at = bodies.findIndex(isSummaryRequest);
    expect(at).toBeGreaterThan(0);
    // Same system prompt and tools, and every message of the previous request: the cache holds.
    const [before, summary, after] = [bodies[at - 1], bodies[at], bodies[at + 1]];
    expect(summary.system).toEqual(before.system);
    expect(summary.tools).toEqual(before.tools);
    const strip = (m: any) =>
      JSON.parse(JSON.stringify(m).replaceAll(',"cache_control":{"type":"ephemeral"}', ""));
    const previous = before.messages.map(strip);
    expect(summary.messages.slice(0, previous.length - 1).map(strip)).toEqual(previous.slice(0, -1));
    // After it, the history starts with the task and the summary, and is much shorter.
    expect(JSON.stringify(after.messages[0])).toContain("SUMMARY: echoing long texts");
    expect(JSON.stringify(after.messages[0])).toContain("Echo long texts.");
    expect(after.messages.length).toBeLessThan(summary.messages.length);
    // Past half the window, the model sees its context use.
    expect(JSON.stringify(bodies[at - 1].messages.at(-1))).toMatch(
      /Context: [\d,]+ \/ [\d,]+ tokens \(\d+%\)/,
    );
    // The summary streamed to nobody: it is shown once, in the notice.
    const notices = h.events.filter(
      (e) => e.type === "ui_message_added" && e.message.type === "say" && e.message.payload.say === "notice",
    );
    expect(JSON.stringify(notices)).toContain("SUMMARY: echoing long texts");
  });
});

describe("cost", () => {
  it("is reported per request and summed per task from the model's prices", async () => {
    const usage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 10_000, cacheWriteTokens: 2000 };
    const h = await startHarness(
      [
        { toolCalls: [call("echo", { text: "x" })], usage },
        { ...finishTurn(), usage },
      ],
      { prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
    );
    await h.task.start("Go.");

    // 1000×3 + 100×15 + 10000×0.3 + 2000×3.75 = 15,000 micro-dollars per request.
    const requests = h.events.flatMap((e) =>
      e.type === "ui_message_updated" && e.message.type === "say" && e.message.payload.say === "api_request"
        ? [e.message.payload.usage]
        : [],
    );
    expect(requests).toHaveLength(2);
    for (const one of requests) expect(one!.costUsd).toBeCloseTo(0.015, 9);
    const done = h.events.find((e) => e.type === "task_completed");
    expect(done).toMatchObject({ usage: { inputTokens: 2000, cacheReadTokens: 20_000 } });
    expect(done?.type === "task_completed" && done.usage.costUsd).toBeCloseTo(0.03, 9);
  });

  it("is absent when the prices are unknown", async () => {
    const h = await startHarness([finishTurn()]);
    await h.task.start("Go.");
    const done = h.events.find((e) => e.type === "task_completed");
    expect(done?.type === "task_completed" && done.usage.costUsd).toBeUndefined();
  });
});

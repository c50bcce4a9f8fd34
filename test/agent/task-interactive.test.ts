/**
 * The agent loop with a person in it: approvals, aborts, continuing a stopped task, and
 * retried requests. In-process, against the fake model server.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as prompts from "../../src/agent/task-prompts.js";
import type { Event } from "../../src/protocol/index.js";
import {
  call,
  callsSent,
  closeHarnesses,
  finishTurn,
  resultsSent,
  startHarness,
  statuses,
} from "./task-harness.js";

afterEach(closeHarnesses);

const isAsk = (event: Event) => event.type === "ask";
const askIdOf = (event: Event) => (event.type === "ask" ? event.message.id : "");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** No assistant tool call in the history lacks a result in the message right after it. */
function expectEveryCallPaired(history: readonly { role: string; content: any[] }[]): void {
  history.forEach((message, i) => {
    if (message.role !== "assistant") return;
    const calls = message.content.filter((b) => b.type === "tool_call").map((b) => b.id);
    if (calls.length === 0) return;
    const next = history[i + 1];
    const results = (next?.content ?? []).filter((b) => b.type === "tool_result").map((b) => b.callId);
    expect(results, `results for the calls of history[${i}]`).toEqual(calls);
  });
}

describe("approvals in interactive mode", () => {
  it("asks before a mutating call, waits, and runs it once approved", async () => {
    const h = await startHarness(
      [{ toolCalls: [call("save", { name: "a.txt" }, "toolu_save")] }, finishTurn()],
      {
        interactive: true,
      },
    );
    const outcome = h.task.start("Save a file.");
    const ask = await h.nextEvent(isAsk);

    expect(ask).toMatchObject({
      message: {
        type: "ask",
        payload: { ask: "tool_approval", tool: "save", callId: "toolu_save", summary: "save a.txt" },
      },
    });
    expect(h.task.status).toBe("waiting");
    await sleep(100);
    expect(h.log).toEqual([]);
    expect(h.server.requests).toHaveLength(1);

    expect(h.task.answer(askIdOf(ask), { response: "approve" })).toBe(true);
    expect(await outcome).toEqual({ status: "completed", result: "done" });
    expect(h.log[0]).toBe("save:a.txt");
    expect(resultsSent(h.server.requests[1]!)).toEqual([
      { id: "toolu_save", text: "saved a.txt", isError: false },
    ]);
    expect(statuses(h.events)).toEqual(["running", "waiting", "running", "completed"]);
    // An ask is answered once.
    expect(h.task.answer(askIdOf(ask), { response: "approve" })).toBe(false);
  });

  it("a denial with text is sent to the model as feedback, and the call does not run", async () => {
    const h = await startHarness(
      [{ toolCalls: [call("save", { name: "b.txt" }, "toolu_deny")] }, finishTurn()],
      {
        interactive: true,
      },
    );
    const outcome = h.task.start("Save a file.");
    const ask = await h.nextEvent(isAsk);
    h.task.answer(askIdOf(ask), { response: "deny", text: "call it notes.txt instead" });
    await outcome;

    expect(h.log).not.toContain("save:b.txt");
    const [result] = resultsSent(h.server.requests[1]!);
    expect(result).toMatchObject({ id: "toolu_deny", isError: true });
    expect(result!.text).toBe(
      "The user denied this operation and said:\n<feedback>\ncall it notes.txt instead\n</feedback>",
    );
  });

  it("read-only calls run without asking", async () => {
    const h = await startHarness([{ toolCalls: [call("echo", { text: "hi" })] }, finishTurn()], {
      interactive: true,
    });
    await h.task.start("Echo.");
    expect(h.events.some(isAsk)).toBe(false);
    expect(h.log[0]).toBe("echo:hi");
  });
});

describe("aborting", () => {
  it("during a slow stream ends aborted, keeping the partial text marked as interrupted", async () => {
    const text = "Let me look at this carefully, one small piece at a time, before doing anything.";
    const h = await startHarness([
      { text, toolCalls: [call("echo", { text: "never" })], chunkDelayMs: 40 },
      finishTurn(),
    ]);
    const outcome = h.task.start("Think.");
    await h.nextEvent(
      (e) => e.type === "ui_message_added" && e.message.type === "say" && e.message.payload.say === "text",
    );
    const started = Date.now();
    h.task.abort();

    expect(await outcome).toEqual({ status: "aborted" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(h.task.status).toBe("aborted");
    expect(statuses(h.events)).toEqual(["running", "aborted"]);
    const last = h.task.history.at(-1)!;
    expect(last.role).toBe("assistant");
    expect(last.content.some((b) => b.type === "tool_call")).toBe(false);
    const said = last.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(said).toContain(prompts.interruptedByUser);
    expect(said.length).toBeGreaterThan(prompts.interruptedByUser.length);
    expect(text.startsWith(said.replace(prompts.interruptedByUser, ""))).toBe(true);
    expect(h.log).toEqual([]);
  });

  it("while a request hangs ends aborted promptly", async () => {
    const h = await startHarness([{ fault: { kind: "hang" } }]);
    const outcome = h.task.start("Wait.");
    await h.server.waitForRequests(1);
    h.task.abort();
    expect(await outcome).toEqual({ status: "aborted" });
    expect(h.task.history.at(-1)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: prompts.interruptedByUser }],
    });
  });

  it("during a tool run keeps every call of the reply paired with a result", async () => {
    const h = await startHarness([
      {
        toolCalls: [
          call("wait", { ms: 10_000 }, "toolu_wait"),
          // A mutating call waits for the read before it, so the abort comes first.
          call("save", { name: "later.txt" }, "toolu_echo"),
        ],
      },
      finishTurn(),
    ]);
    const outcome = h.task.start("Wait.");
    await h.nextEvent(
      (e) =>
        e.type === "ui_message_updated" &&
        e.message.type === "say" &&
        e.message.payload.say === "tool" &&
        e.message.payload.status === "running",
    );
    h.task.abort();

    expect(await outcome).toEqual({ status: "aborted" });
    expect(h.log).toEqual(["wait:10000"]);
    expectEveryCallPaired(h.task.history);
    const last = h.task.history.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content).toMatchObject([
      { type: "tool_result", callId: "toolu_wait", isError: true, content: [{ text: "stopped: aborted" }] },
      {
        type: "tool_result",
        callId: "toolu_echo",
        isError: true,
        content: [{ text: prompts.interruptedByUser }],
      },
    ]);
  });

  it("while the mistake-limit question is open ends the task as aborted", async () => {
    const h = await startHarness([{ text: "a" }, { text: "b" }], {
      interactive: true,
      maxConsecutiveMistakes: 2,
    });
    const outcome = h.task.start("Go.");
    const ask = await h.nextEvent(isAsk);
    expect(ask).toMatchObject({ message: { payload: { ask: "mistake_limit" } } });
    h.task.abort();
    expect(await outcome).toEqual({ status: "aborted" });
  });
});

describe("after the task stops", () => {
  it("the mistake limit keeps the last results paired, and send() carries on from there", async () => {
    const h = await startHarness(
      [
        { toolCalls: [call("fail", { why: "a" }, "toolu_f1")] },
        { toolCalls: [call("fail", { why: "b" }, "toolu_f2")] },
        finishTurn("after help"),
      ],
      { maxConsecutiveMistakes: 2 },
    );
    expect(await h.task.start("Go.")).toMatchObject({ status: "failed", code: "mistake_limit" });
    expectEveryCallPaired(h.task.history);

    expect(await h.task.send("Try finishing instead.")).toEqual({
      status: "completed",
      result: "after help",
    });
    const resumed = h.server.requests[2]!;
    expect(callsSent(resumed)).toEqual(["toolu_f2"]);
    expect(JSON.stringify(resumed.body.messages)).toContain('"tool_use_id":"toolu_f2"');
    expect(JSON.stringify(resumed.body.messages.at(-1))).toContain("Try finishing instead.");
  });

  it("a provider failure keeps the request's tool results, so send() sends them paired", async () => {
    const h = await startHarness([
      { toolCalls: [call("echo", { text: "x" }, "toolu_echo")] },
      { fault: { kind: "http", status: 400, message: "context too long" } },
      finishTurn("resumed"),
    ]);
    const failed = await h.task.start("Go.");
    expect(failed).toMatchObject({ status: "failed", code: "provider_error" });
    if (failed.status === "failed") expect(failed.message).toContain("HTTP 400");
    expectEveryCallPaired(h.task.history);

    expect(await h.task.send("Please continue.")).toEqual({ status: "completed", result: "resumed" });
    const resumed = h.server.requests[2]!;
    const toolUse = resumed.body.messages.findIndex((m: any) => JSON.stringify(m).includes('"tool_use"'));
    expect(JSON.stringify(resumed.body.messages[toolUse + 1])).toContain('"tool_use_id":"toolu_echo"');
    // The original task is still the first message.
    expect(JSON.stringify(resumed.body.messages[0])).toContain("<task>\\nGo.\\n</task>");
  });
  it("send() after an abort continues the task with the new message", async () => {
    const h = await startHarness([{ fault: { kind: "hang" } }, finishTurn("continued")]);
    const first = h.task.start("Wait.");
    await h.server.waitForRequests(1);
    h.task.abort();
    expect(await first).toEqual({ status: "aborted" });

    expect(await h.task.send("Go on, please.")).toEqual({ status: "completed", result: "continued" });
    expect(h.server.requests).toHaveLength(2);
    const messages = h.server.requests[1]!.body.messages;
    expect(JSON.stringify(messages.at(-2))).toContain(prompts.interruptedByUser);
    expect(JSON.stringify(messages.at(-1))).toContain("Go on, please.");
    expect(statuses(h.events)).toEqual(["running", "aborted", "running", "completed"]);
  });
});

describe("retries", () => {
  it("retries a retryable failure with back-off and completes", async () => {
    const h = await startHarness(
      [{ fault: { kind: "http", status: 503 } }, { fault: { kind: "drop", afterChunks: 3 } }, finishTurn()],
      {
        retry: { attempts: 2, baseDelayMs: 50, maxDelayMs: 1000 },
      },
    );
    const outcome = await h.task.start("Go.");

    expect(outcome).toEqual({ status: "completed", result: "done" });
    expect(h.server.requests).toHaveLength(3);
    const gaps = [1, 2].map((i) => h.server.requests[i]!.receivedAt - h.server.requests[i - 1]!.receivedAt);
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(h.task.turns).toBe(1);
  });

  it("does not retry a client error", async () => {
    const h = await startHarness([{ fault: { kind: "http", status: 401 } }, finishTurn()]);
    expect(await h.task.start("Go.")).toMatchObject({ status: "failed", code: "provider_error" });
    expect(h.server.requests).toHaveLength(1);
  });

  it("many retries over a long task do not pile up abort listeners", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const turns = 12;
      const h = await startHarness(
        (_, index) => {
          if (index >= turns * 2) return finishTurn();
          return index % 2 === 0
            ? { fault: { kind: "http", status: 503 } }
            : { toolCalls: [call("echo", { text: `${index}` })] };
        },
        { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1000 } },
      );
      expect(await h.task.start("Go.")).toMatchObject({ status: "completed" });
      expect(h.server.requests.length).toBe(turns * 2 + 1);
      await sleep(20);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.includes("MaxListenersExceeded"))).toEqual([]);
  });
});

describe("a message sent while the task works", () => {
  it("goes to the model with the results of the running tool, before the next request", async () => {
    const h = await startHarness([
      { toolCalls: [call("wait", { ms: 300 }, "toolu_wait")] },
      { toolCalls: [call("echo", { text: "heard" }, "toolu_echo")] },
      finishTurn(),
    ]);
    const done = h.task.start("Wait a little.");
    await h.server.waitForRequests(1);
    await sleep(50);
    const same = h.task.send("Also check the README.");
    expect(h.server.requests).toHaveLength(1);
    expect((await done).status).toBe("completed");
    expect(await same).toEqual(await done);
    const second = JSON.stringify(h.server.requests[1]!.body.messages.at(-1));
    expect(second).toContain("toolu_wait");
    expect(second).toContain("Also check the README.");
    expect(h.server.requests).toHaveLength(3);
    expectEveryCallPaired(h.task.history as any);
    // Said when delivered: after the tool that was running, before the model's next reply.
    const says = h.events.flatMap((e) =>
      e.type === "ui_message_added" && e.message.type === "say" ? [e.message.payload.say] : [],
    );
    expect(says.indexOf("user_message")).toBeGreaterThan(says.indexOf("tool"));
  });

  it("sent as the model finishes: goes with the completion's result, and the task goes on", async () => {
    const h = await startHarness([
      {
        toolCalls: [
          call("wait", { ms: 200 }, "toolu_wait"),
          call("finish", { result: "first" }, "toolu_fin"),
        ],
      },
      finishTurn("second"),
    ]);
    const done = h.task.start("Wait, then finish.");
    await h.server.waitForRequests(1);
    await sleep(50);
    void h.task.send("One more thing.");
    const outcome = await done;
    expect(outcome).toEqual({ status: "completed", result: "second" });
    expect(JSON.stringify(h.server.requests[1]!.body.messages.at(-1))).toContain("One more thing.");
  });

  it("after an abort, the message starts the next turn", async () => {
    const h = await startHarness([
      { toolCalls: [call("wait", { ms: 5000 }, "toolu_wait")] },
      finishTurn("after"),
    ]);
    const done = h.task.start("Wait long.");
    await h.server.waitForRequests(1);
    await sleep(50);
    void h.task.send("Stop waiting and finish.");
    await sleep(20);
    h.task.abort();
    expect(await done).toEqual({ status: "completed", result: "after" });
    expect(JSON.stringify(h.server.requests[1]!.body.messages.at(-1))).toContain("Stop waiting and finish.");
    expectEveryCallPaired(h.task.history as any);
  });
});

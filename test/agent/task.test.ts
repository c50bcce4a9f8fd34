/**
 * The agent loop in-process: the real Anthropic adapter against the fake model server, with
 * small real tools. Covers the nudge and the mistake count, completion, several calls in one
 * reply, tools that throw, usage totals and the task's state transitions.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as prompts from "../../src/agent/task-prompts.js";
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

const lastUserText = (body: any): string =>
  body.messages
    .at(-1)
    .content.map((block: any) => block.text ?? "")
    .join("\n");

describe("replies without a tool call", () => {
  it("get the nudge in the next request and count as a mistake", async () => {
    const h = await startHarness([{ text: "Sure, I can help." }, finishTurn("ok")]);
    const outcome = await h.task.start("Say hi.");

    expect(outcome).toEqual({ status: "completed", result: "ok" });
    expect(h.server.requests).toHaveLength(2);
    expect(lastUserText(h.server.requests[0]!.body)).not.toContain(prompts.noToolsUsed());
    expect(lastUserText(h.server.requests[1]!.body)).toBe(prompts.noToolsUsed());
    // The reply itself stays in the history, answered by the nudge.
    expect(h.task.history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(h.task.history[1]!.content).toEqual([{ type: "text", text: "Sure, I can help." }]);
    const notices = h.events.filter(
      (e) => e.type === "ui_message_added" && e.message.type === "say" && e.message.payload.say === "notice",
    );
    expect(notices).toHaveLength(1);
  });

  it("stop the task at the mistake limit without another request", async () => {
    const h = await startHarness([{ text: "one" }, { text: "two" }, finishTurn()], {
      maxConsecutiveMistakes: 2,
    });
    const outcome = await h.task.start("Go.");

    expect(outcome).toMatchObject({ status: "failed", code: "mistake_limit" });
    expect(h.server.requests).toHaveLength(2);
    expect(h.events.find((e) => e.type === "error")).toMatchObject({ code: "mistake_limit", fatal: true });
    expect(statuses(h.events)).toEqual(["running", "failed"]);
  });
});

describe("the mistake count", () => {
  it("counts consecutive failing tool calls", async () => {
    const h = await startHarness(
      [
        { toolCalls: [call("fail", { why: "a" })] },
        { toolCalls: [call("fail", { why: "b" })] },
        finishTurn(),
      ],
      { maxConsecutiveMistakes: 2 },
    );
    const outcome = await h.task.start("Go.");

    expect(outcome).toMatchObject({ status: "failed", code: "mistake_limit" });
    if (outcome.status === "failed") expect(outcome.message).toContain("fail: failed because b");
    expect(h.log).toEqual(["fail:a", "fail:b"]);
  });

  it("is reset by a successful tool call", async () => {
    const h = await startHarness(
      [
        { toolCalls: [call("fail", { why: "a" })] },
        { toolCalls: [call("echo", { text: "fine" })] },
        { toolCalls: [call("fail", { why: "b" })] },
        { toolCalls: [call("echo", { text: "fine again" })] },
        { text: "no tool" },
        finishTurn("made it"),
      ],
      { maxConsecutiveMistakes: 2 },
    );
    const outcome = await h.task.start("Go.");

    expect(outcome).toEqual({ status: "completed", result: "made it" });
    expect(h.server.requests).toHaveLength(6);
  });
});

describe("tool calls in one reply", () => {
  it("each get a result with their id, in the order they were called", async () => {
    const h = await startHarness([
      {
        toolCalls: [
          call("echo", { text: "a" }, "toolu_a"),
          call("echo", { text: "b" }, "toolu_b"),
          call("echo", { text: "c" }, "toolu_c"),
        ],
      },
      finishTurn(),
    ]);
    await h.task.start("Echo three times.");

    expect(h.log.slice(0, 3)).toEqual(["echo:a", "echo:b", "echo:c"]);
    const next = h.server.requests[1]!;
    expect(callsSent(next)).toEqual(["toolu_a", "toolu_b", "toolu_c"]);
    expect(resultsSent(next)).toEqual([
      { id: "toolu_a", text: "echo: a", isError: false },
      { id: "toolu_b", text: "echo: b", isError: false },
      { id: "toolu_c", text: "echo: c", isError: false },
    ]);
  });

  it("a completing call ends the loop; later calls are not run but still get a paired result", async () => {
    const h = await startHarness([
      {
        text: "All done.",
        toolCalls: [
          call("echo", { text: "before" }, "toolu_1"),
          call("finish", { result: "the result" }, "toolu_2"),
          call("echo", { text: "after" }, "toolu_3"),
          call("save", { name: "late.txt" }, "toolu_4"),
        ],
      },
      finishTurn("never asked for"),
    ]);
    const outcome = await h.task.start("Finish up.");

    expect(outcome).toEqual({ status: "completed", result: "the result" });
    expect(h.server.requests).toHaveLength(1);
    expect(h.log).toEqual(["echo:before", "finish:the result"]);
    const last = h.task.history.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content.map((b) => (b.type === "tool_result" ? b.callId : b.type))).toEqual([
      "toolu_1",
      "toolu_2",
      "toolu_3",
      "toolu_4",
    ]);
    for (const block of last.content.slice(2)) {
      expect(block).toMatchObject({
        type: "tool_result",
        isError: true,
        content: [{ type: "text", text: prompts.skippedAfterCompletion }],
      });
    }
    expect(h.events.find((e) => e.type === "task_completed")).toMatchObject({
      result: "the result",
      turns: 1,
    });
  });

  it("a tool that throws becomes an error result, and the task goes on", async () => {
    const h = await startHarness([{ toolCalls: [call("boom", {}, "toolu_boom")] }, finishTurn("recovered")]);
    const outcome = await h.task.start("Explode.");

    expect(outcome).toEqual({ status: "completed", result: "recovered" });
    expect(resultsSent(h.server.requests[1]!)).toEqual([
      { id: "toolu_boom", text: "boom failed: kaboom", isError: true },
    ]);
    const shown = h.task.ui.messages.find(
      (m) => m.type === "say" && m.payload.say === "tool" && m.payload.callId === "toolu_boom",
    );
    expect(shown?.payload).toMatchObject({ status: "error", output: "boom failed: kaboom" });
  });

  it("a call with invalid arguments is answered without running the tool", async () => {
    const h = await startHarness([
      { toolCalls: [call("echo", { text: 5 }, "toolu_bad"), call("echo", { text: "ok" }, "toolu_ok")] },
      finishTurn(),
    ]);
    await h.task.start("Echo.");

    const [bad, ok] = resultsSent(h.server.requests[1]!);
    expect(bad).toMatchObject({ id: "toolu_bad", isError: true });
    expect(bad!.text).toContain("Invalid arguments for echo:\n- text:");
    expect(ok).toEqual({ id: "toolu_ok", text: "echo: ok", isError: false });
    expect(h.log[0]).toBe("echo:ok");
  });
});

describe("usage and state", () => {
  it("adds usage up across turns and reports it when the task completes", async () => {
    const h = await startHarness([
      {
        toolCalls: [call("echo", { text: "x" })],
        usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 5 },
      },
      {
        text: "thinking aloud",
        usage: { inputTokens: 20, outputTokens: 7, cacheReadTokens: 150, cacheWriteTokens: 0 },
      },
      {
        ...finishTurn(),
        usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 170, cacheWriteTokens: 1 },
      },
    ]);
    await h.task.start("Count.");

    const total = { inputTokens: 123, outputTokens: 21, cacheReadTokens: 370, cacheWriteTokens: 6 };
    expect(h.task.usage).toEqual(total);
    expect(h.task.turns).toBe(3);
    expect(h.events.find((e) => e.type === "task_completed")).toMatchObject({ usage: total, turns: 3 });
    const finalState = h.events.findLast((e) => e.type === "state");
    expect(finalState).toMatchObject({ status: "completed", usage: total, model: "fake-model" });
  });

  it("goes from running to completed", async () => {
    const h = await startHarness([{ toolCalls: [call("echo", { text: "x" })] }, finishTurn()]);
    expect(h.task.status).toBe("idle");
    await h.task.start("Go.");

    expect(statuses(h.events)).toEqual(["running", "completed"]);
    expect(h.task.status).toBe("completed");
    // task_completed comes before the final state, and nothing follows the state.
    const types = h.events.map((e) => e.type);
    expect(types.at(-1)).toBe("state");
    expect(types.at(-2)).toBe("task_completed");
  });
});

describe("a variant with no tools", () => {
  it("is plain chat: the first reply is the answer, no nudge, no tools in the request", async () => {
    const h = await startHarness([{ text: "Paris is the capital of France." }], { noTools: true });
    const outcome = await h.task.start("What is the capital of France?");
    expect(outcome).toEqual({ status: "completed", result: "Paris is the capital of France." });
    expect(h.server.requests).toHaveLength(1);
    expect(h.server.requests[0]!.body.tools ?? []).toEqual([]);
  });
});

describe("/compact and the condense tool", () => {
  it("offers condense for that turn only, replaces the history with the summary, and goes on", async () => {
    const h = await startHarness(
      [
        { toolCalls: [call("echo", { text: "one" })] },
        finishTurn("first done"),
        { toolCalls: [call("condense", { context: "SUMMARY: echoed one; task finished once." })] },
        finishTurn("after compaction"),
      ],
      { condense: true },
    );
    expect((await h.task.start("Echo one.")).status).toBe("completed");
    expect(h.server.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain("condense");
    const outcome = await h.task.send("/compact keep the echo results");
    expect(outcome).toEqual({ status: "completed", result: "after compaction" });

    const compactRequest = h.server.requests[2]!.body;
    expect(compactRequest.tools.map((t: any) => t.name)).toContain("condense");
    expect(JSON.stringify(compactRequest.messages.at(-1))).toContain("keep the echo results");
    const after = h.server.requests[3]!.body;
    expect(after.tools.map((t: any) => t.name)).not.toContain("condense");
    expect(after.messages).toHaveLength(1);
    const first = JSON.stringify(after.messages[0]);
    expect(first).toContain("SUMMARY: echoed one");
    expect(first).toContain("<task>\\nEcho one.\\n</task>");
    expect(h.task.history[0]!.role).toBe("user");
  });
});

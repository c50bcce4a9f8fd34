/**
 * Reasoning survives the agent loop: the signed thinking of a tool-calling reply goes back to
 * the model with the next request (Anthropic rejects a tool-use turn whose thinking is lost), and
 * a retried reply's reasoning is not kept.
 */
import { afterEach, describe, expect, it } from "vitest";
import { call, closeHarnesses, finishTurn, startHarness } from "./task-harness.js";

afterEach(closeHarnesses);

describe("thinking with signatures", () => {
  it("is sent back, signature and all, in the following requests", async () => {
    const h = await startHarness([
      { reasoning: "First I echo.", toolCalls: [call("echo", { text: "a" })] },
      { reasoning: "Now finish.", ...finishTurn() },
    ]);
    await h.task.start("Echo then finish.");

    const assistant = h.server.requests[1]!.body.messages[1];
    expect(assistant.role).toBe("assistant");
    expect(assistant.content[0]).toEqual({
      type: "thinking",
      thinking: "First I echo.",
      signature: "sig_fake_1_0",
    });
    expect(assistant.content.at(-1)).toMatchObject({ type: "tool_use", name: "echo" });
    expect(h.task.history[1]!.content[0]).toEqual({
      type: "reasoning",
      text: "First I echo.",
      signature: "sig_fake_1_0",
    });
  });

  it("of a failed, retried reply is dropped with the rest of it", async () => {
    const h = await startHarness([
      { reasoning: "Thinking that will be lost.", text: "Half", fault: { kind: "drop", afterChunks: 7 } },
      { reasoning: "Fresh thought.", toolCalls: [call("echo", { text: "b" })] },
      finishTurn(),
    ]);
    await h.task.start("Go.");

    const sent = JSON.stringify(h.server.requests[2]!.body.messages);
    expect(sent).toContain("Fresh thought.");
    expect(sent).not.toContain("Thinking that will be lost.");
  });
});

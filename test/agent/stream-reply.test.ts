/** How a streamed reply is assembled: reasoning keeps every opaque part its wire format needs back. */
import { describe, expect, it } from "vitest";
import { streamReply } from "../../src/agent/stream-reply.js";
import { createUiMessageLog } from "../../src/agent/ui-messages.js";
import type { LlmEvent } from "../../src/llm/types.js";
import type { Event } from "../../src/protocol/index.js";

async function* play(events: LlmEvent[]): AsyncGenerator<LlmEvent> {
  yield* events;
}

const assemble = (events: LlmEvent[]) =>
  streamReply(
    play(events),
    createUiMessageLog(() => {}),
  );

describe("streamReply", () => {
  it("keeps redacted thinking as a block of its own, between signed thinking blocks", async () => {
    const reply = await assemble([
      { type: "reasoning_delta", text: "one" },
      { type: "reasoning_delta", text: "", signature: "s1" },
      { type: "reasoning_delta", text: "", redacted: "opaque" },
      { type: "reasoning_delta", text: "two" },
      { type: "reasoning_delta", text: "", signature: "s2" },
      { type: "text_delta", text: "answer" },
      { type: "done", stopReason: "end_turn" },
    ]);
    expect(reply.content).toEqual([
      { type: "reasoning", text: "one", signature: "s1" },
      { type: "reasoning", text: "", redacted: "opaque" },
      { type: "reasoning", text: "two", signature: "s2" },
      { type: "text", text: "answer" },
    ]);
  });

  it("attaches an encrypted reasoning item to its summary, or keeps it alone when there is none", async () => {
    const reply = await assemble([
      { type: "reasoning_delta", text: "summary" },
      { type: "reasoning_delta", text: "", id: "rs_1", encrypted: "enc1" },
      { type: "text_delta", text: "then" },
      { type: "reasoning_delta", text: "", id: "rs_2", encrypted: "enc2" },
      {
        type: "tool_call_end",
        id: "c1",
        name: "read",
        input: {},
        rawArguments: "{}",
        signature: "fc_1",
      },
      { type: "done", stopReason: "tool_use" },
    ]);
    expect(reply.content).toEqual([
      { type: "reasoning", text: "summary", id: "rs_1", encrypted: "enc1" },
      { type: "text", text: "then" },
      { type: "reasoning", text: "", id: "rs_2", encrypted: "enc2" },
      { type: "tool_call", id: "c1", name: "read", input: {}, signature: "fc_1" },
    ]);
  });

  it("shows a notice from the adapter to the person, and keeps it out of the reply", async () => {
    const events: Event[] = [];
    const reply = await streamReply(
      play([
        { type: "notice", text: "The model 'old' is deprecated." },
        { type: "text_delta", text: "answer" },
        { type: "done", stopReason: "end_turn" },
      ]),
      createUiMessageLog((event) => events.push(event)),
    );
    expect(reply.content).toEqual([{ type: "text", text: "answer" }]);
    const notices = events.flatMap((event) =>
      event.type === "ui_message_added" &&
      event.message.type === "say" &&
      event.message.payload.say === "notice"
        ? [event.message.payload.text]
        : [],
    );
    expect(notices).toEqual(["The model 'old' is deprecated."]);
  });
});

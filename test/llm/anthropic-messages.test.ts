/** What the Anthropic adapter sends: asserted on the requests the fake server recorded. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAnthropicMessagesClient } from "../../src/llm/anthropic-messages.js";
import type { LlmMessage, LlmRequest, ModelClient } from "../../src/llm/types.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { assistantMessageFrom, collectEvents, eventsOfType } from "../support/llm-events.js";

const API_KEY = "sk-ant-test-key";
const PIXEL = "iVBORw0KGgo=";

const tools = [
  {
    name: "read_file",
    description: "Reads a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  { name: "list_files", description: "Lists files.", inputSchema: { type: "object", properties: {} } },
];

function baseRequest(messages: LlmMessage[]): LlmRequest {
  return { system: "You are Bowline.", messages, tools };
}

describe("anthropic-messages requests", () => {
  let server: FakeModelServer | undefined;

  afterEach(async () => {
    await server?.close();
  });

  async function start(script: ScriptedTurn[], maxOutputTokens?: number): Promise<ModelClient> {
    server = await startFakeModelServer({ script });
    return createAnthropicMessagesClient({
      provider: "anthropic",
      wireFormat: "anthropic-messages",
      model: "claude-test",
      apiKey: API_KEY,
      baseUrl: server.url,
      maxRetries: 0,
      maxOutputTokens,
    });
  }

  it("sends the model, a cached system block, the tools and the key", async () => {
    const client = await start([{ text: "hi" }]);
    const user: LlmMessage = { role: "user", content: [{ type: "text", text: "Hello" }] };
    await collectEvents(client.stream(baseRequest([user]), new AbortController().signal));
    const [recorded] = server!.requests;
    expect(recorded?.format).toBe("anthropic-messages");
    expect(recorded?.path).toBe("/v1/messages");
    // Older SDKs send the key as x-api-key, newer ones as a bearer token.
    const sentKey =
      recorded?.headers["x-api-key"] ?? String(recorded?.headers.authorization).replace(/^Bearer /, "");
    expect(sentKey).toBe(API_KEY);
    expect(recorded?.headers["anthropic-version"]).toBeTruthy();
    expect(recorded?.body).toMatchObject({
      model: "claude-test",
      max_tokens: 8192,
      stream: true,
      system: [{ type: "text", text: "You are Bowline.", cache_control: { type: "ephemeral" } }],
      tools: [
        {
          name: "read_file",
          description: "Reads a file.",
          input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        },
        { name: "list_files", description: "Lists files.", input_schema: { type: "object", properties: {} } },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "Hello", cache_control: { type: "ephemeral" } }] },
      ],
    });
  });

  it("takes max_tokens from the request over the config, and omits empty tools and system", async () => {
    const client = await start([{ text: "hi" }], 1000);
    const request: LlmRequest = {
      system: "",
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
      tools: [],
      maxOutputTokens: 321,
      temperature: 0.2,
    };
    await collectEvents(client.stream(request, new AbortController().signal));
    const body = server!.requests[0]?.body;
    expect(body.max_tokens).toBe(321);
    expect(body.temperature).toBe(0.2);
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("system");
  });

  it("pairs tool results with the calls of the previous reply", async () => {
    const client = await start([
      {
        reasoning: "I should read both.",
        text: "Reading.",
        toolCalls: [
          { name: "read_file", input: { path: "a.ts" } },
          { name: "list_files", input: {} },
        ],
      },
      { text: "Done." },
    ]);
    const user: LlmMessage = { role: "user", content: [{ type: "text", text: "Look around" }] };
    const first = await collectEvents(client.stream(baseRequest([user]), new AbortController().signal));
    const assistant = assistantMessageFrom(first);
    const [readCall, listCall] = eventsOfType(first, "tool_call_end");
    const results: LlmMessage = {
      role: "user",
      content: [
        { type: "text", text: "Here you go." },
        {
          type: "tool_result",
          callId: readCall!.id,
          content: [
            { type: "text", text: "export const a = 1;" },
            { type: "image", mediaType: "image/png", data: PIXEL },
          ],
        },
        {
          type: "tool_result",
          callId: listCall!.id,
          content: [{ type: "text", text: "no such dir" }],
          isError: true,
        },
      ],
    };
    await collectEvents(client.stream(baseRequest([user, assistant, results]), new AbortController().signal));

    const messages = server!.requests[1]?.body.messages;
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should read both.", signature: expect.stringMatching(/^sig_fake_/) },
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "toolu_fake_1", name: "read_file", input: { path: "a.ts" } },
        { type: "tool_use", id: "toolu_fake_2", name: "list_files", input: {} },
      ],
    });
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_fake_1",
          content: [
            { type: "text", text: "export const a = 1;" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } },
          ],
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_fake_2",
          content: [{ type: "text", text: "no such dir" }],
          is_error: true,
        },
        { type: "text", text: "Here you go.", cache_control: { type: "ephemeral" } },
      ],
    });
  });

  it("drops reasoning that has no signature and sends unparsable tool input as an empty object", async () => {
    const client = await start([{ text: "ok" }]);
    const messages: LlmMessage[] = [
      { role: "user", content: [{ type: "text", text: "Go" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "from another provider" },
          { type: "tool_call", id: "toolu_x", name: "read_file", input: undefined },
        ],
      },
      { role: "user", content: [{ type: "tool_result", callId: "toolu_x", content: [], isError: true }] },
    ];
    await collectEvents(client.stream(baseRequest(messages), new AbortController().signal));
    const sent = server!.requests[0]?.body.messages;
    expect(sent[1].content).toEqual([{ type: "tool_use", id: "toolu_x", name: "read_file", input: {} }]);
    expect(sent[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_x", is_error: true });
  });

  it("reports the reasoning signature so the block can be sent back", async () => {
    const client = await start([{ reasoning: "Think.", text: "Answer." }]);
    const user: LlmMessage = { role: "user", content: [{ type: "text", text: "Q" }] };
    const events = await collectEvents(client.stream(baseRequest([user]), new AbortController().signal));
    const signed = eventsOfType(events, "reasoning_delta").filter((event) => event.signature);
    expect(signed).toEqual([{ type: "reasoning_delta", text: "", signature: "sig_fake_1_0" }]);
  });

  it("turns the SDK's console warning of a deprecated model into one notice, and writes nothing", async () => {
    server = await startFakeModelServer({ script: [{ text: "one" }, { text: "two" }] });
    const client = createAnthropicMessagesClient({
      provider: "anthropic",
      wireFormat: "anthropic-messages",
      // Deprecated in the SDK this project locks (its warning names the end-of-life date).
      model: "claude-sonnet-4-5",
      apiKey: API_KEY,
      baseUrl: server.url,
      maxRetries: 0,
    });
    const warn = vi.spyOn(console, "warn");
    try {
      const user: LlmMessage = { role: "user", content: [{ type: "text", text: "Hello" }] };
      const first = await collectEvents(client.stream(baseRequest([user]), new AbortController().signal));
      const notices = eventsOfType(first, "notice");
      expect(notices).toHaveLength(1);
      expect(notices[0]!.text).toMatch(
        /^The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life on [^\n]+\d{4}\. Please migrate/,
      );
      expect(
        eventsOfType(first, "text_delta")
          .map((event) => event.text)
          .join(""),
      ).toBe("one");
      // Said once per client, not at every request.
      const second = await collectEvents(client.stream(baseRequest([user]), new AbortController().signal));
      expect(eventsOfType(second, "notice")).toEqual([]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

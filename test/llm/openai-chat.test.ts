/** What the OpenAI Chat Completions adapter sends: asserted on the requests the fake server recorded. */
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiChatClient } from "../../src/llm/openai-chat.js";
import type { LlmMessage, LlmRequest, ModelClient } from "../../src/llm/types.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { assistantMessageFrom, collectEvents, eventsOfType } from "../support/llm-events.js";

const API_KEY = "sk-openai-test-key";
const PIXEL = "iVBORw0KGgo=";

const tools = [
  {
    name: "read_file",
    description: "Reads a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

function baseRequest(messages: LlmMessage[]): LlmRequest {
  return { system: "You are Bowline.", messages, tools };
}

describe("openai-chat requests", () => {
  let server: FakeModelServer | undefined;

  afterEach(async () => {
    await server?.close();
  });

  async function start(script: ScriptedTurn[], maxOutputTokens?: number): Promise<ModelClient> {
    server = await startFakeModelServer({ script });
    return createOpenAiChatClient({
      provider: "openai",
      wireFormat: "openai-chat",
      model: "gpt-test",
      apiKey: API_KEY,
      baseUrl: `${server.url}/v1`,
      maxRetries: 0,
      maxOutputTokens,
    });
  }

  it("sends the system message first, the tools as functions, and asks for usage", async () => {
    const client = await start([{ text: "hi" }], 2048);
    const user: LlmMessage = { role: "user", content: [{ type: "text", text: "Hello" }] };
    await collectEvents(client.stream(baseRequest([user]), new AbortController().signal));
    const [recorded] = server!.requests;
    expect(recorded?.format).toBe("openai-chat");
    expect(recorded?.path).toBe("/v1/chat/completions");
    expect(recorded?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(recorded?.body).toMatchObject({
      model: "gpt-test",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 2048,
      messages: [
        { role: "system", content: "You are Bowline." },
        { role: "user", content: "Hello" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "read_file",
            description: "Reads a file.",
            parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
          },
        },
      ],
    });
  });

  it("omits empty tools and an unset output limit", async () => {
    const client = await start([{ text: "hi" }]);
    const request: LlmRequest = {
      system: "",
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
      tools: [],
    };
    await collectEvents(client.stream(request, new AbortController().signal));
    const body = server!.requests[0]?.body;
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("max_completion_tokens");
    expect(body.messages).toEqual([{ role: "user", content: "Hi" }]);
  });

  it("sends tool results as tool messages paired with the previous reply's calls", async () => {
    const client = await start([
      {
        text: "Reading both.",
        toolCalls: [
          { name: "read_file", input: { path: "a.ts" } },
          { name: "read_file", input: { path: "shot.png" } },
        ],
      },
      { text: "Done." },
    ]);
    const user: LlmMessage = { role: "user", content: [{ type: "text", text: "Look" }] };
    const first = await collectEvents(client.stream(baseRequest([user]), new AbortController().signal));
    const [codeCall, imageCall] = eventsOfType(first, "tool_call_end");
    const results: LlmMessage = {
      role: "user",
      content: [
        {
          type: "tool_result",
          callId: codeCall!.id,
          content: [
            { type: "text", text: "line 1" },
            { type: "text", text: "line 2" },
          ],
        },
        {
          type: "tool_result",
          callId: imageCall!.id,
          content: [
            { type: "text", text: "An image." },
            { type: "image", mediaType: "image/png", data: PIXEL },
          ],
          isError: false,
        },
        { type: "text", text: "Also consider this." },
      ],
    };
    const second = baseRequest([user, assistantMessageFrom(first), results]);
    await collectEvents(client.stream(second, new AbortController().signal));

    const messages = server!.requests[1]?.body.messages;
    expect(messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "Reading both.",
        tool_calls: [
          {
            id: "call_fake_1",
            type: "function",
            function: { name: "read_file", arguments: '{"path":"a.ts"}' },
          },
          {
            id: "call_fake_2",
            type: "function",
            function: { name: "read_file", arguments: '{"path":"shot.png"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_fake_1", content: "line 1\n\nline 2" },
      { role: "tool", tool_call_id: "call_fake_2", content: "An image." },
      {
        role: "user",
        content: [
          { type: "text", text: "Images returned by tool call call_fake_2:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } },
          { type: "text", text: "Also consider this." },
        ],
      },
    ]);
  });

  it("sends an assistant message with only tool calls with null content", async () => {
    const client = await start([{ text: "ok" }]);
    const messages: LlmMessage[] = [
      { role: "user", content: [{ type: "text", text: "Go" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hidden" },
          { type: "tool_call", id: "call_9", name: "read_file", input: { path: "x" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", callId: "call_9", content: [], isError: true }] },
    ];
    await collectEvents(client.stream(baseRequest(messages), new AbortController().signal));
    const sent = server!.requests[0]?.body.messages;
    expect(sent[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_9", type: "function", function: { name: "read_file", arguments: '{"path":"x"}' } },
      ],
    });
    expect(sent[3]).toEqual({ role: "tool", tool_call_id: "call_9", content: "" });
    expect(sent).toHaveLength(4);
  });
});

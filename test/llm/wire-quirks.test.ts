/**
 * Streams from servers that bend the wire formats: compatible servers' dialects, provider error
 * events inside a stream, malformed and truncated streams. None may make a stream throw.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicMessagesClient } from "../../src/llm/anthropic-messages.js";
import { createOpenAiChatClient } from "../../src/llm/openai-chat.js";
import type { LlmRequest, ModelClient } from "../../src/llm/types.js";
import { collectEvents, eventsOfType, reasoningOf, textOf } from "../support/llm-events.js";
import { type RawSseServer, startRawSseServer } from "../support/raw-sse-server.js";

const request: LlmRequest = {
  system: "s",
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const chunk = (delta: unknown, finishReason: string | null = null) =>
  data({
    id: "c",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
const event = (name: string, value: unknown) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`;

let server: RawSseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openAiClient(frames: string[]): Promise<ModelClient> {
  server = await startRawSseServer(frames);
  const base = { provider: "local", model: "m", apiKey: "not-needed", maxRetries: 0 };
  return createOpenAiChatClient({ ...base, wireFormat: "openai-chat", baseUrl: `${server.url}/v1` });
}

async function anthropicClient(frames: string[]): Promise<ModelClient> {
  server = await startRawSseServer(frames);
  const base = { provider: "anthropic", model: "m", apiKey: "k-secret", maxRetries: 0 };
  return createAnthropicMessagesClient({ ...base, wireFormat: "anthropic-messages", baseUrl: server.url });
}

const run = (client: ModelClient) => collectEvents(client.stream(request, new AbortController().signal));

describe("openai-chat dialects", () => {
  it("accepts a whole tool call in one chunk, without an id, finished with `stop`", async () => {
    const client = await openAiClient([
      chunk({ role: "assistant", reasoning: "Use the tool." }),
      chunk({ tool_calls: [{ index: 0, function: { name: "list_files", arguments: '{"path":"."}' } }] }),
      chunk({}, "stop"),
      "data: [DONE]\n\n",
    ]);
    const events = await run(client);
    expect(reasoningOf(events)).toBe("Use the tool.");
    const [start] = eventsOfType(events, "tool_call_start");
    expect(start?.name).toBe("list_files");
    expect(eventsOfType(events, "tool_call_end")).toEqual([
      {
        type: "tool_call_end",
        id: start?.id,
        name: "list_files",
        input: { path: "." },
        rawArguments: '{"path":"."}',
      },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });
    expect(eventsOfType(events, "usage")).toEqual([]);
  });

  it("maps `length` to max_tokens", async () => {
    const events = await run(
      await openAiClient([chunk({ content: "cut" }), chunk({}, "length"), "data: [DONE]\n\n"]),
    );
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "max_tokens" });
  });

  it("ends with an error when the stream stops before a finish reason", async () => {
    const events = await run(await openAiClient([chunk({ content: "half" }), "data: [DONE]\n\n"]));
    expect(textOf(events)).toBe("half");
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
  });

  it("ends with an error on a chunk that is not JSON", async () => {
    const events = await run(await openAiClient([chunk({ content: "a" }), "data: {not json\n\n"]));
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
    expect((events.at(-1) as { message: string }).message).toMatch(/malformed/);
  });

  it("ends with an error when the server reports one inside the stream", async () => {
    const frames = [
      chunk({ content: "a" }),
      data({ error: { message: "model crashed", type: "server_error" } }),
    ];
    const events = await run(await openAiClient(frames));
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
    expect((events.at(-1) as { message: string }).message).toContain("model crashed");
  });
});

describe("anthropic-messages stream faults", () => {
  const start = event("message_start", {
    type: "message_start",
    message: {
      id: "m",
      type: "message",
      role: "assistant",
      content: [],
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  });

  it("ends with an error event on an overloaded_error inside the stream", async () => {
    const events = await run(
      await anthropicClient([
        start,
        event("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
      ]),
    );
    expect(events).toEqual([
      { type: "error", message: expect.stringContaining("Overloaded"), retryable: true },
    ]);
  });

  it("ends with a non-retryable error on an invalid_request_error inside the stream", async () => {
    const events = await run(
      await anthropicClient([
        start,
        event("error", { type: "error", error: { type: "invalid_request_error", message: "bad" } }),
      ]),
    );
    expect(events).toEqual([{ type: "error", message: expect.stringContaining("bad"), retryable: false }]);
  });

  it("ends with an error when the stream stops before message_stop", async () => {
    const frames = [
      start,
      event("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "" },
      }),
      event("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "half" },
      }),
    ];
    const events = await run(await anthropicClient(frames));
    expect(textOf(events)).toBe("half");
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
    expect(eventsOfType(events, "done")).toEqual([]);
  });

  it("ends with an error on an event that is not JSON", async () => {
    const events = await run(await anthropicClient([start, "event: content_block_start\ndata: {oops\n\n"]));
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
  });

  it("maps the other stop reasons", async () => {
    const frames = (reason: string) => [
      start,
      event("message_delta", {
        type: "message_delta",
        delta: { stop_reason: reason },
        usage: { output_tokens: 2 },
      }),
      event("message_stop", { type: "message_stop" }),
    ];
    for (const [reason, expected] of [
      ["max_tokens", "max_tokens"],
      ["stop_sequence", "end_turn"],
      ["refusal", "other"],
    ]) {
      const events = await run(await anthropicClient(frames(reason!)));
      await server?.close();
      expect(events.at(-1)).toEqual({ type: "done", stopReason: expected });
      expect(eventsOfType(events, "usage")[0]?.usage).toEqual({
        inputTokens: 5,
        outputTokens: 2,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      });
    }
  });
});

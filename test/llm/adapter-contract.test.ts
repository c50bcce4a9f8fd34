/**
 * The behaviour both adapters share, run through the real SDKs against the fake model server:
 * streamed text, tool calls, reasoning, usage, and every way a reply can fail.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/llm/create-client.js";
import type { LlmEvent, LlmRequest, ModelClient, ModelConfig, WireFormat } from "../../src/llm/types.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { collectEvents, eventsOfType, reasoningOf, textOf } from "../support/llm-events.js";

const API_KEY = "sk-test-SECRET-key-0123456789";

const formats: Array<{ wireFormat: WireFormat; provider: string; callIdPrefix: string }> = [
  { wireFormat: "anthropic-messages", provider: "anthropic", callIdPrefix: "toolu_fake_" },
  { wireFormat: "openai-chat", provider: "openai", callIdPrefix: "call_fake_" },
];

const request: LlmRequest = {
  system: "You are a test assistant.",
  messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
  tools: [
    {
      name: "read_file",
      description: "Reads a file.",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ],
};

describe.each(formats)("$wireFormat adapter", ({ wireFormat, provider, callIdPrefix }) => {
  let server: FakeModelServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(script: ScriptedTurn[], config: Partial<ModelConfig> = {}): Promise<ModelClient> {
    server = await startFakeModelServer({ script });
    const baseUrl = wireFormat === "anthropic-messages" ? server.url : `${server.url}/v1`;
    return createModelClient({
      provider,
      wireFormat,
      model: "fake-model",
      apiKey: API_KEY,
      baseUrl,
      maxRetries: 0,
      ...config,
    });
  }

  const run = (client: ModelClient, signal = new AbortController().signal) =>
    collectEvents(client.stream(request, signal));

  it("streams text in several deltas and ends with usage and end_turn", async () => {
    const text = "Hello there, this reply arrives in small pieces.";
    const events = await run(await start([{ text }]));
    expect(eventsOfType(events, "text_delta").length).toBeGreaterThan(3);
    expect(textOf(events)).toBe(text);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["usage", "done"]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
    expect(eventsOfType(events, "error")).toEqual([]);
  });

  it("streams one tool call with chunked arguments and parses its input", async () => {
    const input = { path: "src/some/rather/long/path/name.ts", start_line: 3 };
    const events = await run(
      await start([{ text: "Let me look.", toolCalls: [{ name: "read_file", input }] }]),
    );
    const id = `${callIdPrefix}1`;
    expect(eventsOfType(events, "tool_call_start")).toEqual([
      { type: "tool_call_start", id, name: "read_file" },
    ]);
    const deltas = eventsOfType(events, "tool_call_delta");
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((delta) => delta.id === id)).toBe(true);
    expect(deltas.map((delta) => delta.argumentsDelta).join("")).toBe(JSON.stringify(input));
    expect(eventsOfType(events, "tool_call_end")).toEqual([
      { type: "tool_call_end", id, name: "read_file", input, rawArguments: JSON.stringify(input) },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });
  });

  it("streams several tool calls, keeping each one's arguments apart", async () => {
    const events = await run(
      await start([
        {
          toolCalls: [
            { name: "read_file", input: { path: "a.ts" } },
            { id: "custom_id_7", name: "list_files", input: { path: "src", recursive: true } },
            { name: "search_files", input: { regex: "TODO\\(.*\\)", path: "." } },
          ],
        },
      ]),
    );
    const ends = eventsOfType(events, "tool_call_end");
    expect(ends.map((end) => [end.id, end.name, end.input])).toEqual([
      [`${callIdPrefix}1`, "read_file", { path: "a.ts" }],
      ["custom_id_7", "list_files", { path: "src", recursive: true }],
      [`${callIdPrefix}2`, "search_files", { regex: "TODO\\(.*\\)", path: "." }],
    ]);
    expect(eventsOfType(events, "tool_call_start").map((start) => start.id)).toEqual(
      ends.map((end) => end.id),
    );
    for (const end of ends) {
      const fragments = eventsOfType(events, "tool_call_delta").filter((delta) => delta.id === end.id);
      expect(fragments.map((delta) => delta.argumentsDelta).join("")).toBe(end.rawArguments);
    }
  });

  it("streams reasoning apart from the text", async () => {
    const events = await run(await start([{ reasoning: "The user greets me; greet back.", text: "Hi!" }]));
    expect(reasoningOf(events)).toBe("The user greets me; greet back.");
    expect(textOf(events)).toBe("Hi!");
    const firstText = events.findIndex((event) => event.type === "text_delta");
    const lastReasoning = events.map((event) => event.type).lastIndexOf("reasoning_delta");
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it("reports usage with cached input apart from uncached input", async () => {
    const usage = { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 40 };
    const events = await run(await start([{ text: "ok", usage }]));
    const expected =
      wireFormat === "anthropic-messages"
        ? usage
        : // Chat Completions has no notion of cache writes.
          { ...usage, cacheWriteTokens: 0 };
    expect(eventsOfType(events, "usage")).toEqual([{ type: "usage", usage: expected }]);
  });

  it("reports malformed tool arguments as a parse error, not a throw", async () => {
    const raw = '{"path": "a.ts", "start_line": ';
    const events = await run(await start([{ toolCalls: [{ name: "read_file", rawArguments: raw }] }]));
    const [end] = eventsOfType(events, "tool_call_end");
    expect(end).toMatchObject({ name: "read_file", input: undefined, rawArguments: raw });
    expect(end?.parseError).toMatch(/not valid JSON/);
    expect(end?.parseError).toContain(raw);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });
  });

  it("treats empty tool arguments as an empty object", async () => {
    const events = await run(await start([{ toolCalls: [{ name: "list_files", rawArguments: "" }] }]));
    expect(eventsOfType(events, "tool_call_end")[0]).toMatchObject({ input: {}, rawArguments: "" });
  });

  it("ends with a non-retryable error on HTTP 401, without the API key in the message", async () => {
    const client = await start([
      { fault: { kind: "http", status: 401, message: `Incorrect API key provided: ${API_KEY}` } },
    ]);
    const events = await run(client);
    expect(events).toHaveLength(1);
    const [error] = events as Array<Extract<LlmEvent, { type: "error" }>>;
    expect(error).toMatchObject({ type: "error", status: 401, retryable: false });
    expect(error?.message).toContain("401");
    expect(error?.message).toContain("Incorrect API key provided");
    expect(error?.message).not.toContain(API_KEY);
  });

  it.each([400, 403, 404])("ends with a non-retryable error on HTTP %i", async (status) => {
    const events = await run(await start([{ fault: { kind: "http", status } }]));
    expect(events).toEqual([expect.objectContaining({ type: "error", status, retryable: false })]);
  });

  it.each([408, 409, 429, 500, 529])(
    "ends with a retryable error on HTTP %i when retries are off",
    async (status) => {
      const events = await run(await start([{ fault: { kind: "http", status } }]));
      expect(events).toEqual([expect.objectContaining({ type: "error", status, retryable: true })]);
      expect(server?.requests).toHaveLength(1);
    },
  );

  it("lets the SDK retry a server error before the first byte", async () => {
    const client = await start([{ fault: { kind: "http", status: 500 } }, { text: "second time lucky" }], {
      maxRetries: 1,
    });
    const events = await run(client);
    expect(textOf(events)).toBe("second time lucky");
    expect(server?.requests).toHaveLength(2);
  });

  it("ends with a retryable error when the connection drops mid-stream", async () => {
    const events = await run(
      await start([
        { text: "This reply will be cut off half way.", fault: { kind: "drop", afterChunks: 4 } },
      ]),
    );
    expect(eventsOfType(events, "text_delta").length).toBeGreaterThan(0);
    expect(eventsOfType(events, "done")).toEqual([]);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "error", retryable: true });
    expect(last?.type === "error" && last.status).toBeFalsy();
  });

  it("still ends with done when the connection drops after the reply is complete", async () => {
    // Anthropic: everything through message_stop; OpenAI: everything through the finish chunk.
    const afterChunks = wireFormat === "anthropic-messages" ? 7 : 3;
    const events = await run(await start([{ text: "abc", fault: { kind: "drop", afterChunks } }]));
    expect(textOf(events)).toBe("abc");
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
    expect(eventsOfType(events, "error")).toEqual([]);
  });

  it("stops promptly with done/aborted when aborted mid-stream", async () => {
    const client = await start([{ text: "x".repeat(400), chunkDelayMs: 25 }]);
    const controller = new AbortController();
    const events: LlmEvent[] = [];
    let abortedAt = 0;
    for await (const event of client.stream(request, controller.signal)) {
      events.push(event);
      if (event.type === "text_delta" && abortedAt === 0) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    expect(Date.now() - abortedAt).toBeLessThan(300);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "aborted" });
    expect(eventsOfType(events, "error")).toEqual([]);
    expect(textOf(events).length).toBeLessThan(100);
  });

  it("stops with done/aborted when aborted while the server hangs", async () => {
    const client = await start([{ fault: { kind: "hang" } }]);
    const controller = new AbortController();
    const pending = collectEvents(client.stream(request, controller.signal));
    await server?.waitForRequests(1);
    controller.abort();
    expect(await pending).toEqual([{ type: "done", stopReason: "aborted" }]);
  });

  it("ends with a retryable error when a hanging server exceeds the timeout", async () => {
    const events = await run(await start([{ fault: { kind: "hang" } }], { timeoutMs: 200 }));
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const client = await start([{ text: "never sent" }]);
    const controller = new AbortController();
    controller.abort();
    expect(await collectEvents(client.stream(request, controller.signal))).toEqual([
      { type: "done", stopReason: "aborted" },
    ]);
    expect(server?.requests).toHaveLength(0);
  });

  it("ends with a retryable error when the server cannot be reached", async () => {
    const client = await start([]);
    await server?.close();
    const events = await run(client);
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
    expect((events[0] as { message: string }).message).toMatch(/connection/i);
  });
});

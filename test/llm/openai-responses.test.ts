/**
 * The OpenAI Responses adapter through the official SDK: against the fake model server for
 * replies and the requests it records, and against raw SSE for events the script cannot produce.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiResponsesClient } from "../../src/llm/openai-responses.js";
import type {
  ContentBlock,
  LlmEvent,
  LlmMessage,
  LlmRequest,
  ModelClient,
  ModelConfig,
} from "../../src/llm/types.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { collectEvents, eventsOfType, reasoningOf, textOf } from "../support/llm-events.js";
import { type RawSseServer, startRawSseServer } from "../support/raw-sse-server.js";

const API_KEY = "sk-responses-SECRET-key-0123456789";
const PIXEL = "iVBORw0KGgo=";

const tools = [
  {
    name: "read_file",
    description: "Reads a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

const hello: LlmMessage = { role: "user", content: [{ type: "text", text: "Hello" }] };

function requestOf(messages: LlmMessage[]): LlmRequest {
  return { system: "You are Bowline.", messages, tools };
}

/** The assistant message a reply amounts to, keeping the opaque parts this wire format needs back. */
function assistantMessageFrom(events: LlmEvent[]): LlmMessage {
  const content: ContentBlock[] = [];
  const reasoning = eventsOfType(events, "reasoning_delta");
  if (reasoning.length > 0) {
    const opaque = reasoning.find((event) => event.encrypted);
    content.push({
      type: "reasoning",
      text: reasoningOf(events),
      id: opaque?.id,
      encrypted: opaque?.encrypted,
    });
  }
  if (textOf(events)) content.push({ type: "text", text: textOf(events) });
  for (const end of eventsOfType(events, "tool_call_end")) {
    content.push({
      type: "tool_call",
      id: end.id,
      name: end.name,
      input: end.input,
      signature: end.signature,
    });
  }
  return { role: "assistant", content };
}

describe("openai-responses adapter", () => {
  let server: FakeModelServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(script: ScriptedTurn[], config: Partial<ModelConfig> = {}): Promise<ModelClient> {
    server = await startFakeModelServer({ script });
    return createOpenAiResponsesClient({
      provider: "openai",
      wireFormat: "openai-responses",
      model: "gpt-test",
      apiKey: API_KEY,
      baseUrl: `${server.url}/v1`,
      maxRetries: 0,
      ...config,
    });
  }

  const run = (
    client: ModelClient,
    messages: LlmMessage[] = [hello],
    signal = new AbortController().signal,
  ) => collectEvents(client.stream(requestOf(messages), signal));

  it("streams text in several deltas and ends with usage and end_turn", async () => {
    const text = "Hello there, this reply arrives in small pieces.";
    const events = await run(await start([{ text }]));
    expect(eventsOfType(events, "text_delta").length).toBeGreaterThan(3);
    expect(textOf(events)).toBe(text);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["usage", "done"]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
    expect(server?.requests[0]?.path).toBe("/v1/responses");
  });

  it("streams several tool calls with chunked arguments, each ending with its item id", async () => {
    const first = { path: "src/some/rather/long/path/name.ts" };
    const second = { path: "src", recursive: true };
    const events = await run(
      await start([
        {
          text: "Reading.",
          toolCalls: [
            { name: "read_file", input: first },
            { id: "custom_id_7", name: "list_files", input: second },
          ],
        },
      ]),
    );
    expect(eventsOfType(events, "tool_call_start")).toEqual([
      { type: "tool_call_start", id: "call_fake_1", name: "read_file" },
      { type: "tool_call_start", id: "custom_id_7", name: "list_files" },
    ]);
    const argumentsOf = (id: string) =>
      eventsOfType(events, "tool_call_delta")
        .filter((delta) => delta.id === id)
        .map((delta) => delta.argumentsDelta);
    expect(argumentsOf("call_fake_1").length).toBeGreaterThan(3);
    expect(argumentsOf("call_fake_1").join("")).toBe(JSON.stringify(first));
    expect(argumentsOf("custom_id_7").join("")).toBe(JSON.stringify(second));
    expect(eventsOfType(events, "tool_call_end")).toEqual([
      {
        type: "tool_call_end",
        id: "call_fake_1",
        name: "read_file",
        input: first,
        rawArguments: JSON.stringify(first),
        signature: "fc_fake_1_0",
      },
      {
        type: "tool_call_end",
        id: "custom_id_7",
        name: "list_files",
        input: second,
        rawArguments: JSON.stringify(second),
        signature: "fc_fake_1_1",
      },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });
  });

  it("reports malformed tool arguments as a parse error, not a throw", async () => {
    const raw = '{"path": "a.ts", "start_line": ';
    const events = await run(await start([{ toolCalls: [{ name: "read_file", rawArguments: raw }] }]));
    const [end] = eventsOfType(events, "tool_call_end");
    expect(end).toMatchObject({ name: "read_file", input: undefined, rawArguments: raw });
    expect(end?.parseError).toMatch(/not valid JSON/);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });
  });

  it("reports cached input apart from uncached input", async () => {
    const usage = { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900 };
    const events = await run(await start([{ text: "ok", usage }]));
    expect(eventsOfType(events, "usage")).toEqual([
      { type: "usage", usage: { ...usage, cacheWriteTokens: 0 } },
    ]);
  });

  it("streams the reasoning summary, then its encrypted item, and sends both back next turn", async () => {
    const client = await start(
      [
        {
          reasoning: "The user wants a file; read it.",
          toolCalls: [{ name: "read_file", input: { path: "a" } }],
        },
        { text: "Done." },
      ],
      { reasoning: { effort: "high" } },
    );
    const first = await run(client);
    expect(reasoningOf(first)).toBe("The user wants a file; read it.");
    const reasoning = eventsOfType(first, "reasoning_delta");
    const opaque = reasoning.at(-1);
    expect(opaque).toMatchObject({ text: "", id: "rs_fake_1" });
    expect(opaque?.encrypted).toBeTruthy();
    expect(reasoning.slice(0, -1).every((event) => event.encrypted === undefined)).toBe(true);
    const firstTextOrCall = first.findIndex((event) => event.type === "tool_call_start");
    expect(first.indexOf(opaque as LlmEvent)).toBeLessThan(firstTextOrCall);

    const result: LlmMessage = {
      role: "user",
      content: [
        { type: "tool_result", callId: "call_fake_1", content: [{ type: "text", text: "contents" }] },
      ],
    };
    await run(client, [hello, assistantMessageFrom(first), result]);
    const body = server?.requests[1]?.body;
    expect(body.store).toBe(false);
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    expect(body.reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(body.input.slice(1)).toEqual([
      {
        type: "reasoning",
        id: "rs_fake_1",
        encrypted_content: opaque?.encrypted,
        summary: [{ type: "summary_text", text: "The user wants a file; read it." }],
      },
      {
        type: "function_call",
        id: "fc_fake_1_0",
        call_id: "call_fake_1",
        name: "read_file",
        arguments: '{"path":"a"}',
      },
      { type: "function_call_output", call_id: "call_fake_1", output: "contents" },
    ]);
  });

  it("sends the exact request: instructions, input items, function tools and limits", async () => {
    const client = await start([{ text: "ok" }], {
      maxOutputTokens: 2048,
      quirks: { noParallelToolCalls: true },
    });
    const messages: LlmMessage[] = [
      hello,
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "no encrypted state, so not sent" },
          { type: "text", text: "Looking." },
          { type: "tool_call", id: "call_9", name: "read_file", input: { path: "x" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", callId: "call_9", content: [], isError: true }] },
    ];
    await collectEvents(
      client.stream({ ...requestOf(messages), temperature: 0.2 }, new AbortController().signal),
    );
    const recorded = server?.requests[0];
    expect(recorded?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(recorded?.body).toEqual({
      model: "gpt-test",
      instructions: "You are Bowline.",
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "Hello" }] },
        { type: "message", role: "assistant", content: "Looking." },
        { type: "function_call", call_id: "call_9", name: "read_file", arguments: '{"path":"x"}' },
        { type: "function_call_output", call_id: "call_9", output: "" },
      ],
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      tools: [
        {
          type: "function",
          name: "read_file",
          description: "Reads a file.",
          parameters: tools[0]?.inputSchema,
          strict: false,
        },
      ],
      max_output_tokens: 2048,
      temperature: 0.2,
      parallel_tool_calls: false,
    });
  });

  it("omits empty instructions and tools, and reasoning settings when none are configured", async () => {
    const client = await start([{ text: "ok" }]);
    await collectEvents(
      client.stream({ system: "", messages: [hello], tools: [] }, new AbortController().signal),
    );
    const body = server?.requests[0]?.body;
    for (const key of ["instructions", "tools", "reasoning", "max_output_tokens", "parallel_tool_calls"]) {
      expect(body).not.toHaveProperty(key);
    }
  });

  it("sends images as data URLs, those of tool results in a user message after the outputs", async () => {
    const client = await start([{ text: "I see." }]);
    const messages: LlmMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", mediaType: "image/png", data: PIXEL },
        ],
      },
      { role: "assistant", content: [{ type: "tool_call", id: "call_1", name: "screenshot", input: {} }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            callId: "call_1",
            content: [
              { type: "text", text: "A screenshot." },
              { type: "image", mediaType: "image/jpeg", data: PIXEL },
            ],
          },
          { type: "text", text: "And this one?" },
        ],
      },
    ];
    await run(client, messages);
    const input = server?.requests[0]?.body.input;
    expect(input[0]).toEqual({
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "What is this?" },
        { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${PIXEL}` },
      ],
    });
    expect(input.slice(2)).toEqual([
      { type: "function_call_output", call_id: "call_1", output: "A screenshot." },
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "Images returned by tool call call_1:" },
          { type: "input_image", detail: "auto", image_url: `data:image/jpeg;base64,${PIXEL}` },
          { type: "input_text", text: "And this one?" },
        ],
      },
    ]);
  });

  it("ends with a non-retryable error on HTTP 401, without the API key in the message", async () => {
    const client = await start([
      { fault: { kind: "http", status: 401, message: `Incorrect API key provided: ${API_KEY}` } },
    ]);
    const events = await run(client);
    expect(events).toEqual([expect.objectContaining({ type: "error", status: 401, retryable: false })]);
    const [error] = eventsOfType(events, "error");
    expect(error?.message).toContain("Incorrect API key provided");
    expect(error?.message).not.toContain(API_KEY);
  });

  it.each([429, 500])("ends with a retryable error on HTTP %i", async (status) => {
    const events = await run(await start([{ fault: { kind: "http", status } }]));
    expect(events).toEqual([expect.objectContaining({ type: "error", status, retryable: true })]);
  });

  it("ends with a retryable error when the connection drops mid-stream", async () => {
    const events = await run(
      await start([
        { text: "This reply will be cut off half way.", fault: { kind: "drop", afterChunks: 6 } },
      ]),
    );
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(eventsOfType(events, "done")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
  });

  it("stops promptly with done/aborted when aborted mid-stream", async () => {
    const client = await start([{ text: "x".repeat(400), chunkDelayMs: 25 }]);
    const controller = new AbortController();
    const events: LlmEvent[] = [];
    for await (const event of client.stream(requestOf([hello]), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "aborted" });
    expect(eventsOfType(events, "error")).toEqual([]);
    expect(textOf(events).length).toBeLessThan(100);
  });
});

describe("openai-responses stream endings", () => {
  let raw: RawSseServer | undefined;

  afterEach(async () => {
    await raw?.close();
    raw = undefined;
  });

  let sequence = 0;
  const event = (data: Record<string, unknown>) =>
    `event: ${String(data.type)}\ndata: ${JSON.stringify({ ...data, sequence_number: sequence++ })}\n\n`;
  const response = (fields: Record<string, unknown>) => ({
    id: "resp_1",
    object: "response",
    created_at: 0,
    model: "m",
    output: [],
    error: null,
    incomplete_details: null,
    ...fields,
  });
  const textDelta = (delta: string) =>
    event({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta });

  async function runRaw(frames: string[]): Promise<LlmEvent[]> {
    raw = await startRawSseServer(frames);
    const client = createOpenAiResponsesClient({
      provider: "openai",
      wireFormat: "openai-responses",
      model: "m",
      apiKey: API_KEY,
      baseUrl: `${raw.url}/v1`,
      maxRetries: 0,
    });
    return collectEvents(client.stream(requestOf([hello]), new AbortController().signal));
  }

  it("maps an incomplete response cut at max_output_tokens to max_tokens", async () => {
    const events = await runRaw([
      textDelta("cut"),
      event({
        type: "response.incomplete",
        response: response({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }),
      }),
    ]);
    expect(textOf(events)).toBe("cut");
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "max_tokens" });
  });

  it("keeps the parts of a reasoning summary apart", async () => {
    const part = (summary_index: number, delta: string) => [
      event({
        type: "response.reasoning_summary_part.added",
        item_id: "rs_1",
        output_index: 0,
        summary_index,
        part: { type: "summary_text", text: "" },
      }),
      event({
        type: "response.reasoning_summary_text.delta",
        item_id: "rs_1",
        output_index: 0,
        summary_index,
        delta,
      }),
    ];
    const events = await runRaw([
      ...part(0, "First thought."),
      ...part(1, "Second thought."),
      event({ type: "response.completed", response: response({ status: "completed" }) }),
    ]);
    expect(reasoningOf(events)).toBe("First thought.\n\nSecond thought.");
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
  });

  it("ends a failed response with an error that is retryable for a server error", async () => {
    const events = await runRaw([
      textDelta("partial"),
      event({
        type: "response.failed",
        response: response({ status: "failed", error: { code: "server_error", message: "try again" } }),
      }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
    expect((events.at(-1) as { message: string }).message).toContain("try again");
    expect(eventsOfType(events, "done")).toEqual([]);
  });

  it("ends with a non-retryable error on an error event for a bad prompt, key redacted", async () => {
    const events = await runRaw([
      event({ type: "error", code: "invalid_prompt", message: `rejected for ${API_KEY}`, param: null }),
    ]);
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: false })]);
    expect((events[0] as { message: string }).message).not.toContain(API_KEY);
  });

  it("ends with a retryable error on a rate-limit error event", async () => {
    const events = await runRaw([
      event({ type: "error", code: "rate_limit_exceeded", message: "slow down", param: null }),
    ]);
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
  });

  it("ends with a truncated-stream error when the stream closes before response.completed", async () => {
    const events = await runRaw([textDelta("half a rep")]);
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: true });
    expect((events.at(-1) as { message: string }).message).toMatch(/ended before the reply was complete/);
  });
});

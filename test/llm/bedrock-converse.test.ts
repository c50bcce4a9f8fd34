/**
 * The Bedrock Converse adapter, run through the official AWS SDK against the fake model server
 * (binary event-stream replies, SigV4-signed requests with fake static credentials).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBedrockConverseClient } from "../../src/llm/bedrock-converse.js";
import type { LlmEvent, LlmMessage, LlmRequest, ModelClient, ModelConfig } from "../../src/llm/types.js";
import { bedrockEvent, bedrockException } from "../support/bedrock-eventstream.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import {
  assistantMessageFrom,
  collectEvents,
  eventsOfType,
  reasoningOf,
  textOf,
} from "../support/llm-events.js";

const ACCESS_KEY_ID = "AKIDFAKEBOWLINE00001";
const SECRET_ACCESS_KEY = "fake/secret+access/key0123456789abcdef";
const API_KEY = "ABSKbedrock-api-key-SECRET-0123456789";
const PIXEL = "iVBORw0KGgo=";
const MODEL = "anthropic.claude-sonnet-4-test-v1:0";

const tools = [
  {
    name: "read_file",
    description: "Reads a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  { name: "list_files", description: "Lists files.", inputSchema: { type: "object", properties: {} } },
];

const hello: LlmMessage = { role: "user", content: [{ type: "text", text: "Hello" }] };

function baseRequest(messages: LlmMessage[] = [hello]): LlmRequest {
  return { system: "You are Bowline.", messages, tools };
}

let server: FakeModelServer | undefined;

beforeEach(() => {
  // Only the fake static credentials below may reach the SDK's credential chain.
  vi.stubEnv("AWS_ACCESS_KEY_ID", ACCESS_KEY_ID);
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", SECRET_ACCESS_KEY);
  for (const name of ["AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"]) {
    vi.stubEnv(name, undefined);
  }
  vi.stubEnv("AWS_BEARER_TOKEN_BEDROCK", undefined);
  vi.stubEnv("AWS_CONFIG_FILE", "/nonexistent/bowline-test/config");
  vi.stubEnv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/bowline-test/credentials");
  vi.stubEnv("AWS_EC2_METADATA_DISABLED", "true");
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function start(script: ScriptedTurn[], config: Partial<ModelConfig> = {}): Promise<ModelClient> {
  server = await startFakeModelServer({ script });
  return createBedrockConverseClient({
    provider: "bedrock",
    wireFormat: "bedrock-converse",
    model: MODEL,
    apiKey: "",
    baseUrl: server.url,
    region: "eu-west-3",
    maxRetries: 0,
    modelInfo: { promptCaching: true },
    ...config,
  });
}

const run = (client: ModelClient, request = baseRequest(), signal = new AbortController().signal) =>
  collectEvents(client.stream(request, signal));

function lastError(events: LlmEvent[]): Extract<LlmEvent, { type: "error" }> | undefined {
  const last = events.at(-1);
  return last?.type === "error" ? last : undefined;
}

describe("bedrock-converse requests", () => {
  it("signs with SigV4 and sends system, tools and the last user message with cache points", async () => {
    const client = await start([{ text: "hi" }]);
    await run(client, { ...baseRequest(), temperature: 0.3 });
    const [recorded] = server!.requests;
    expect(recorded?.format).toBe("bedrock-converse");
    expect(recorded?.path).toBe(`/model/${encodeURIComponent(MODEL)}/converse-stream`);
    expect(recorded?.headers.authorization).toMatch(
      new RegExp(`^AWS4-HMAC-SHA256 Credential=${ACCESS_KEY_ID}/\\d{8}/eu-west-3/bedrock/aws4_request, `),
    );
    expect(recorded?.headers["x-amz-date"]).toBeTruthy();
    expect(recorded?.body).toEqual({
      system: [{ text: "You are Bowline." }, { cachePoint: { type: "default" } }],
      messages: [{ role: "user", content: [{ text: "Hello" }, { cachePoint: { type: "default" } }] }],
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: "read_file",
              description: "Reads a file.",
              inputSchema: { json: tools[0]!.inputSchema },
            },
          },
          {
            toolSpec: {
              name: "list_files",
              description: "Lists files.",
              inputSchema: { json: { type: "object", properties: {} } },
            },
          },
          { cachePoint: { type: "default" } },
        ],
      },
      inferenceConfig: { maxTokens: 8192, temperature: 0.3 },
    });
  });

  it("omits empty system and tools, and takes maxTokens from the request over the config", async () => {
    const client = await start([{ text: "hi" }], { maxOutputTokens: 1000 });
    await run(client, { system: "", messages: [hello], tools: [], maxOutputTokens: 321 });
    const body = server!.requests[0]?.body;
    expect(body).not.toHaveProperty("system");
    expect(body).not.toHaveProperty("toolConfig");
    expect(body.inferenceConfig).toEqual({ maxTokens: 321 });
  });

  it("asks for thinking with the configured budget, leaving out the temperature", async () => {
    const client = await start([{ text: "hi" }], { reasoning: { budgetTokens: 2048 } });
    await run(client, { ...baseRequest(), temperature: 0.5 });
    const body = server!.requests[0]?.body;
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 2048 } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 8192 });
  });

  it.each([
    [{ AWS_REGION: "ap-south-1" }, "ap-south-1"],
    [{ AWS_DEFAULT_REGION: "ca-central-1" }, "ca-central-1"],
    [{}, "us-east-1"],
  ])("signs for the region from the environment when the config has none (%o)", async (env, region) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const client = await start([{ text: "hi" }], { region: undefined });
    await run(client);
    expect(server!.requests[0]?.headers.authorization).toContain(`/${region}/bedrock/aws4_request`);
  });

  it("sends a Bedrock API key as a bearer token instead of signing", async () => {
    const client = await start([{ text: "hi" }], { apiKey: API_KEY });
    expect(textOf(await run(client))).toBe("hi");
    expect(server!.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("lets the SDK take a Bedrock API key from AWS_BEARER_TOKEN_BEDROCK", async () => {
    vi.stubEnv("AWS_BEARER_TOKEN_BEDROCK", API_KEY);
    await run(await start([{ text: "hi" }]));
    expect(server!.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("adds the configured headers and signs them", async () => {
    const client = await start([{ text: "hi" }], { headers: { "x-bowline-team": "tools" } });
    await run(client);
    const headers = server!.requests[0]?.headers;
    expect(headers?.["x-bowline-team"]).toBe("tools");
    expect(headers?.authorization).toMatch(/SignedHeaders=[^,]*x-bowline-team/);
  });

  it("sends every request through config.fetch", async () => {
    const urls: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };
    const client = await start([{ text: "through the seam" }], { fetch: recordingFetch });
    const events = await run(client);
    expect(textOf(events)).toBe("through the seam");
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
    expect(urls).toEqual([`${server!.url}/model/${encodeURIComponent(MODEL)}/converse-stream`]);
  });

  it("sends images as bytes in the user's content", async () => {
    const client = await start([{ text: "A pixel." }]);
    const user: LlmMessage = {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", mediaType: "image/png", data: PIXEL },
        { type: "image", mediaType: "image/jpeg", data: PIXEL },
      ],
    };
    await run(client, baseRequest([user]));
    expect(server!.requests[0]?.body.messages[0].content).toEqual([
      { text: "What is this?" },
      { image: { format: "png", source: { bytes: PIXEL } } },
      { image: { format: "jpeg", source: { bytes: PIXEL } } },
      { cachePoint: { type: "default" } },
    ]);
  });

  it("sends signed reasoning and tool calls back, with tool results first and errors marked", async () => {
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
    const first = await run(client, baseRequest([hello]));
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
          content: [{ type: "text", text: "no dir" }],
          isError: true,
        },
      ],
    };
    await run(client, baseRequest([hello, assistant, results]));

    const messages = server!.requests[1]?.body.messages;
    // The cache point moved to the new last user message; the first one is sent unmarked.
    expect(messages[0]).toEqual({ role: "user", content: [{ text: "Hello" }] });
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { reasoningContent: { reasoningText: { text: "I should read both.", signature: "sig_fake_1_0" } } },
        { text: "Reading." },
        { toolUse: { toolUseId: "tooluse_fake_1", name: "read_file", input: { path: "a.ts" } } },
        { toolUse: { toolUseId: "tooluse_fake_2", name: "list_files", input: {} } },
      ],
    });
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        {
          toolResult: {
            toolUseId: "tooluse_fake_1",
            content: [
              { text: "export const a = 1;" },
              { image: { format: "png", source: { bytes: PIXEL } } },
            ],
          },
        },
        { toolResult: { toolUseId: "tooluse_fake_2", content: [{ text: "no dir" }], status: "error" } },
        { text: "Here you go." },
        { cachePoint: { type: "default" } },
      ],
    });
  });

  it("sends redacted reasoning back as bytes and drops unsigned reasoning", async () => {
    const client = await start([{ text: "ok" }]);
    const redacted = Buffer.from("opaque reasoning").toString("base64");
    const messages: LlmMessage[] = [
      hello,
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "", redacted },
          { type: "reasoning", text: "from another provider" },
          { type: "tool_call", id: "tooluse_x", name: "read_file", input: undefined },
        ],
      },
      { role: "user", content: [{ type: "tool_result", callId: "tooluse_x", content: [], isError: true }] },
    ];
    await run(client, baseRequest(messages));
    const sent = server!.requests[0]?.body.messages;
    expect(sent[1].content).toEqual([
      { reasoningContent: { redactedContent: redacted } },
      { toolUse: { toolUseId: "tooluse_x", name: "read_file", input: {} } },
    ]);
    expect(sent[2].content[0]).toEqual({
      toolResult: { toolUseId: "tooluse_x", content: [], status: "error" },
    });
  });
});

describe("bedrock-converse replies", () => {
  it("streams text in several deltas and ends with usage and end_turn", async () => {
    const text = "Hello there, this reply arrives in small pieces.";
    const events = await run(await start([{ text }]));
    expect(eventsOfType(events, "text_delta").length).toBeGreaterThan(3);
    expect(textOf(events)).toBe(text);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["usage", "done"]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
  });

  it("streams reasoning before the text and reports its signature", async () => {
    const events = await run(await start([{ reasoning: "The user greets me; greet back.", text: "Hi!" }]));
    expect(reasoningOf(events)).toBe("The user greets me; greet back.");
    expect(textOf(events)).toBe("Hi!");
    const signed = eventsOfType(events, "reasoning_delta").filter((event) => event.signature);
    expect(signed).toEqual([{ type: "reasoning_delta", text: "", signature: "sig_fake_1_0" }]);
    const firstText = events.findIndex((event) => event.type === "text_delta");
    expect(events.map((event) => event.type).lastIndexOf("reasoning_delta")).toBeLessThan(firstText);
  });

  it("streams two tool calls with chunked arguments, keeping each one's apart", async () => {
    const events = await run(
      await start([
        {
          toolCalls: [
            { name: "read_file", input: { path: "src/some/rather/long/path/name.ts" } },
            { id: "custom_id_7", name: "list_files", input: { path: "src", recursive: true } },
          ],
        },
      ]),
    );
    const ends = eventsOfType(events, "tool_call_end");
    expect(ends.map((end) => [end.id, end.name, end.input])).toEqual([
      ["tooluse_fake_1", "read_file", { path: "src/some/rather/long/path/name.ts" }],
      ["custom_id_7", "list_files", { path: "src", recursive: true }],
    ]);
    expect(eventsOfType(events, "tool_call_start")).toEqual([
      { type: "tool_call_start", id: "tooluse_fake_1", name: "read_file" },
      { type: "tool_call_start", id: "custom_id_7", name: "list_files" },
    ]);
    for (const end of ends) {
      const fragments = eventsOfType(events, "tool_call_delta").filter((delta) => delta.id === end.id);
      expect(fragments.length).toBeGreaterThan(2);
      expect(fragments.map((delta) => delta.argumentsDelta).join("")).toBe(end.rawArguments);
    }
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

  it("reports usage with cache reads and writes apart from uncached input", async () => {
    const usage = { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 40 };
    const events = await run(await start([{ text: "ok", usage }]));
    expect(eventsOfType(events, "usage")).toEqual([{ type: "usage", usage }]);
  });
});

describe("bedrock-converse failures", () => {
  it.each([
    [429, "ThrottlingException", true],
    [500, "InternalServerException", true],
    [503, "ServiceUnavailableException", true],
    [400, "ValidationException", false],
    [403, "AccessDeniedException", false],
  ])("ends with an error event on HTTP %i (%s), retryable: %s", async (status, type, retryable) => {
    const events = await run(await start([{ fault: { kind: "http", status, message: "scripted" } }]));
    expect(events).toEqual([{ type: "error", status, retryable, message: expect.stringContaining(type) }]);
    expect(lastError(events)?.message).toContain("scripted");
    expect(server!.requests).toHaveLength(1);
  });

  it("keeps credentials out of error messages", async () => {
    const message = `bad key ${API_KEY} and secret ${SECRET_ACCESS_KEY}`;
    const client = await start([{ fault: { kind: "http", status: 403, message } }], { apiKey: API_KEY });
    const error = lastError(await run(client));
    expect(error?.message).toContain("bad key");
    expect(error?.message).not.toContain(API_KEY);
    expect(error?.message).not.toContain(SECRET_ACCESS_KEY);
  });

  it("lets the SDK retry a server error when retries are configured", async () => {
    const client = await start([{ fault: { kind: "http", status: 500 } }, { text: "second time lucky" }], {
      maxRetries: 1,
    });
    expect(textOf(await run(client))).toBe("second time lucky");
    expect(server!.requests).toHaveLength(2);
  });

  it("ends with a retryable error when the connection drops mid-stream", async () => {
    const client = await start([
      { text: "This reply will be cut off half way.", fault: { kind: "drop", afterChunks: 3 } },
    ]);
    const events = await run(client);
    expect(textOf(events)).toBe("This reply will ");
    expect(eventsOfType(events, "done")).toEqual([]);
    expect(lastError(events)).toMatchObject({ retryable: true });
    expect(lastError(events)?.status).toBeUndefined();
  });

  it("stops promptly with done/aborted when aborted mid-stream", async () => {
    const client = await start([{ text: "x".repeat(400), chunkDelayMs: 25 }]);
    const controller = new AbortController();
    const events: LlmEvent[] = [];
    let abortedAt = 0;
    for await (const event of client.stream(baseRequest(), controller.signal)) {
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
    const pending = collectEvents(client.stream(baseRequest(), controller.signal));
    await server!.waitForRequests(1);
    controller.abort();
    expect(await pending).toEqual([{ type: "done", stopReason: "aborted" }]);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const client = await start([{ text: "never sent" }]);
    const controller = new AbortController();
    controller.abort();
    expect(await run(client, baseRequest(), controller.signal)).toEqual([
      { type: "done", stopReason: "aborted" },
    ]);
    expect(server!.requests).toHaveLength(0);
  });

  it("ends with a retryable error when a hanging server exceeds the timeout", async () => {
    const events = await run(await start([{ fault: { kind: "hang" } }], { timeoutMs: 200 }));
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
  });

  it("ends with a retryable error when the server cannot be reached", async () => {
    const client = await start([]);
    await server!.close();
    const events = await run(client);
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
    expect(lastError(events)?.message).toMatch(/connection/i);
  });

  it("ends with a non-retryable error when no credentials can be found", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", undefined);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", undefined);
    const events = await run(await start([{ text: "never sent" }]));
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: false })]);
    expect(lastError(events)?.message).toMatch(/credentials/i);
    expect(server!.requests).toHaveLength(0);
  });
});

/** Answers every POST with the given event-stream messages, for replies the script cannot make. */
async function startRawEventStream(frames: Uint8Array[]): Promise<ModelClient> {
  const raw = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
      for (const frame of frames) res.write(frame);
      res.end();
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  const { port } = raw.address() as AddressInfo;
  server = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    waitForRequests: async () => {},
    close: () =>
      new Promise((done) => {
        raw.closeAllConnections();
        raw.close(() => done());
      }),
  };
  return createBedrockConverseClient({
    provider: "bedrock",
    wireFormat: "bedrock-converse",
    model: MODEL,
    apiKey: "",
    baseUrl: server.url,
    region: "us-west-2",
    maxRetries: 0,
    modelInfo: { promptCaching: true },
  });
}

const textDelta = (text: string) =>
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text } });

describe("bedrock-converse stream events the script cannot make", () => {
  it.each([
    ["throttlingException", "ThrottlingException", true],
    ["serviceUnavailableException", "ServiceUnavailableException", true],
    ["internalServerException", "InternalServerException", true],
    ["modelStreamErrorException", "ModelStreamErrorException", true],
    ["validationException", "ValidationException", false],
  ])("ends with an error event on a %s in the stream", async (exceptionType, name, retryable) => {
    const client = await startRawEventStream([
      bedrockEvent("messageStart", { role: "assistant" }),
      textDelta("Partial"),
      bedrockException(exceptionType, "Something went wrong in the stream."),
    ]);
    const events = await run(client);
    expect(textOf(events)).toBe("Partial");
    expect(events.at(-1)).toEqual({
      type: "error",
      retryable,
      message: `bedrock reported an error in the stream: ${name}: Something went wrong in the stream.`,
    });
  });

  it("reports a stream that ends before messageStop as truncated", async () => {
    const client = await startRawEventStream([
      bedrockEvent("messageStart", { role: "assistant" }),
      textDelta("Half a rep"),
    ]);
    const events = await run(client);
    expect(textOf(events)).toBe("Half a rep");
    expect(events.at(-1)).toMatchObject({
      type: "error",
      retryable: true,
      message: expect.stringMatching(/ended/),
    });
  });

  it("finishes a reply whose usage never came, since messageStop ended it", async () => {
    const client = await startRawEventStream([
      bedrockEvent("messageStart", { role: "assistant" }),
      textDelta("Whole."),
      bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
      bedrockEvent("messageStop", { stopReason: "max_tokens" }),
    ]);
    const events = await run(client);
    expect(events).toEqual([
      { type: "text_delta", text: "Whole." },
      { type: "done", stopReason: "max_tokens" },
    ]);
  });

  it("reports redacted reasoning as base64 data", async () => {
    const opaque = Buffer.from("encrypted thoughts").toString("base64");
    const client = await startRawEventStream([
      bedrockEvent("messageStart", { role: "assistant" }),
      bedrockEvent("contentBlockDelta", {
        contentBlockIndex: 0,
        delta: { reasoningContent: { redactedContent: opaque } },
      }),
      bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
      bedrockEvent("messageStop", { stopReason: "end_turn" }),
      bedrockEvent("metadata", {
        usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
        metrics: { latencyMs: 5 },
      }),
    ]);
    const events = await run(client);
    expect(events).toEqual([
      { type: "reasoning_delta", text: "", redacted: opaque },
      {
        type: "usage",
        usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: "done", stopReason: "end_turn" },
    ]);
  });
});

describe("models without prompt caching", () => {
  it("get no cache points (Bedrock refuses them)", async () => {
    const client = await start([{ text: "ok" }], { modelInfo: { promptCaching: false } });
    await run(client);
    expect(JSON.stringify(server!.requests[0]!.body)).not.toContain("cachePoint");
  });
});

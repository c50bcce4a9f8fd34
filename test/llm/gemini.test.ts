/**
 * The Gemini adapter through the official @google/genai SDK against the fake model server: what it
 * streams, what it sends back on the next turn, and every way a reply can fail.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createGeminiClient } from "../../src/llm/gemini.js";
import type {
  LlmEvent,
  LlmMessage,
  LlmRequest,
  ModelClient,
  ModelConfig,
  ToolCallBlock,
} from "../../src/llm/types.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { fakeThoughtSignature } from "../support/gemini-sse.js";
import { collectEvents, eventsOfType, reasoningOf, textOf } from "../support/llm-events.js";

const API_KEY = "AIza-test-SECRET-key-0123456789";
const PIXEL = "iVBORw0KGgo=";
const readFileSchema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
const tools = [{ name: "read_file", description: "Reads a file.", inputSchema: readFileSchema }];
const hello: LlmMessage = { role: "user", content: [{ type: "text", text: "Hello" }] };

function requestWith(messages: LlmMessage[]): LlmRequest {
  return { system: "You are Bowline.", messages, tools };
}

/** The assistant message of a reply, keeping each call's signature as an agent stores it. */
function assistantMessage(events: LlmEvent[]): LlmMessage {
  const content: LlmMessage["content"] = [];
  const reasoning = eventsOfType(events, "reasoning_delta");
  if (reasoning.length > 0) {
    const signature = reasoning.findLast((event) => event.signature)?.signature;
    content.push({ type: "reasoning", text: reasoningOf(events), ...(signature ? { signature } : {}) });
  }
  if (textOf(events)) content.push({ type: "text", text: textOf(events) });
  for (const end of eventsOfType(events, "tool_call_end")) {
    const call: ToolCallBlock = { type: "tool_call", id: end.id, name: end.name, input: end.input };
    content.push(end.signature ? { ...call, signature: end.signature } : call);
  }
  return { role: "assistant", content };
}

/** A fetch that reads the whole reply and hands the SDK an edited copy of its body. */
function rewritingFetch(edit: (body: string) => string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    return new Response(edit(await response.text()), { status: response.status, headers: response.headers });
  };
}

describe("gemini adapter", () => {
  let server: FakeModelServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(script: ScriptedTurn[], config: Partial<ModelConfig> = {}): Promise<ModelClient> {
    server = await startFakeModelServer({ script });
    return createGeminiClient({
      provider: "gemini",
      wireFormat: "gemini",
      model: "gemini-test",
      apiKey: API_KEY,
      baseUrl: server.url,
      maxRetries: 0,
      ...config,
    });
  }

  const run = (client: ModelClient, request = requestWith([hello]), signal = new AbortController().signal) =>
    collectEvents(client.stream(request, signal));

  it("streams text in several deltas and ends with usage and end_turn", async () => {
    const text = "Hello there, this reply arrives in small pieces.";
    const events = await run(await start([{ text }]));
    expect(eventsOfType(events, "text_delta").length).toBeGreaterThan(3);
    expect(textOf(events)).toBe(text);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["usage", "done"]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
    const [recorded] = server!.requests;
    expect(recorded?.format).toBe("gemini");
    expect(recorded?.path).toBe("/v1beta/models/gemini-test:streamGenerateContent");
    expect(recorded?.headers["x-goog-api-key"]).toBe(API_KEY);
  });

  it("sends the system instruction, the tools as JSON Schema declarations and the generation config", async () => {
    const client = await start([{ text: "hi" }], {
      maxOutputTokens: 2048,
      reasoning: { budgetTokens: 1024 },
      headers: { "x-extra": "yes" },
    });
    await run(client, { ...requestWith([hello]), temperature: 0.2 });
    const [recorded] = server!.requests;
    expect(recorded?.headers["x-extra"]).toBe("yes");
    expect(recorded?.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "Hello" }] }],
      systemInstruction: { parts: [{ text: "You are Bowline." }] },
      tools: [
        {
          functionDeclarations: [
            { name: "read_file", description: "Reads a file.", parametersJsonSchema: readFileSchema },
          ],
        },
      ],
      generationConfig: {
        maxOutputTokens: 2048,
        temperature: 0.2,
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      },
    });
  });

  it("streams thought parts as reasoning, apart from the text, and keeps the signature", async () => {
    const events = await run(await start([{ reasoning: "The user greets me; greet back.", text: "Hi!" }]));
    expect(reasoningOf(events)).toBe("The user greets me; greet back.");
    expect(textOf(events)).toBe("Hi!");
    const thoughts = events.flatMap((event, index) =>
      event.type === "reasoning_delta" && event.text ? [index] : [],
    );
    expect(Math.max(...thoughts)).toBeLessThan(events.findIndex((event) => event.type === "text_delta"));
    const signed = eventsOfType(events, "reasoning_delta").filter((event) => event.signature);
    expect(signed).toEqual([{ type: "reasoning_delta", text: "", signature: fakeThoughtSignature(1) }]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
  });

  it("streams two function calls from one reply, each whole, with made-up unique ids", async () => {
    const events = await run(
      await start([
        {
          reasoning: "Read both.",
          toolCalls: [
            { name: "read_file", input: { path: "a.ts" } },
            { name: "list_files", input: { path: "src", recursive: true } },
          ],
        },
      ]),
    );
    const ends = eventsOfType(events, "tool_call_end");
    expect(ends.map((end) => [end.name, end.input, end.rawArguments])).toEqual([
      ["read_file", { path: "a.ts" }, '{"path":"a.ts"}'],
      ["list_files", { path: "src", recursive: true }, '{"path":"src","recursive":true}'],
    ]);
    const [first, second] = ends;
    expect(first?.id).toMatch(/^call_[0-9a-f]{8}_1$/);
    expect(second?.id).toBe(first?.id.replace(/_1$/, "_2"));
    // Gemini signs the first call of a step only.
    expect(first?.signature).toBe(fakeThoughtSignature(1));
    expect(second).not.toHaveProperty("signature");
    expect(eventsOfType(events, "tool_call_start").map((start) => start.id)).toEqual([first?.id, second?.id]);
    for (const end of ends) {
      const deltas = eventsOfType(events, "tool_call_delta").filter((delta) => delta.id === end.id);
      expect(deltas.map((delta) => delta.argumentsDelta)).toEqual([end.rawArguments]);
    }
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });

    const again = await run(await start([{ toolCalls: [{ name: "read_file", input: { path: "b.ts" } }] }]));
    expect(eventsOfType(again, "tool_call_end")[0]?.id).not.toBe(first?.id);
  });

  it("sends calls and results back with the called function's name and the call's signature", async () => {
    const client = await start([
      {
        reasoning: "Read a file and look at a screenshot.",
        toolCalls: [
          { name: "read_file", input: { path: "a.ts" } },
          { name: "screenshot", input: {} },
        ],
      },
      { text: "Done." },
    ]);
    const first = await run(client);
    const [codeCall, imageCall] = eventsOfType(first, "tool_call_end");
    const results: LlmMessage = {
      role: "user",
      content: [
        {
          type: "tool_result",
          callId: imageCall!.id,
          content: [{ type: "image", mediaType: "image/png", data: PIXEL }],
        },
        {
          type: "tool_result",
          callId: codeCall!.id,
          content: [
            { type: "text", text: "line 1" },
            { type: "text", text: "line 2" },
          ],
          isError: true,
        },
        { type: "text", text: "Also consider this." },
      ],
    };
    const second = await run(client, requestWith([hello, assistantMessage(first), results]));
    expect(textOf(second)).toBe("Done.");

    const contents = server!.requests[1]?.body.contents;
    expect(contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          // The reasoning was unsigned (the signature came with the first call), so it stays home.
          {
            functionCall: { name: "read_file", args: { path: "a.ts" } },
            thoughtSignature: fakeThoughtSignature(1),
          },
          { functionCall: { name: "screenshot", args: {} } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "screenshot", response: { output: "" } } },
          { functionResponse: { name: "read_file", response: { error: "line 1\n\nline 2" } } },
          { text: "Images returned by the screenshot call:" },
          { inlineData: { mimeType: "image/png", data: PIXEL } },
          { text: "Also consider this." },
        ],
      },
    ]);
  });

  it("sends signed reasoning back as a thought part and images of user messages inline", async () => {
    const client = await start([{ reasoning: "Think first.", text: "Answer." }, { text: "ok" }]);
    const first = await run(client);
    const look: LlmMessage = {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", mediaType: "image/png", data: PIXEL },
      ],
    };
    await run(client, requestWith([hello, assistantMessage(first), look]));
    expect(server!.requests[1]?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Hello" }] },
      {
        role: "model",
        parts: [
          { text: "Think first.", thought: true, thoughtSignature: fakeThoughtSignature(1) },
          { text: "Answer." },
        ],
      },
      {
        role: "user",
        parts: [{ text: "What is this?" }, { inlineData: { mimeType: "image/png", data: PIXEL } }],
      },
    ]);
  });

  it("sends a call id back only when Gemini gave one", async () => {
    const client = await start([
      { toolCalls: [{ id: "gemini-id-7", name: "read_file", input: { path: "x" } }] },
      { text: "ok" },
    ]);
    const first = await run(client);
    expect(eventsOfType(first, "tool_call_end")[0]?.id).toBe("gemini-id-7");
    const result: LlmMessage = {
      role: "user",
      content: [{ type: "tool_result", callId: "gemini-id-7", content: [{ type: "text", text: "x" }] }],
    };
    await run(client, requestWith([hello, assistantMessage(first), result]));
    expect(server!.requests[1]?.body.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [{ functionCall: { id: "gemini-id-7", name: "read_file", args: { path: "x" } } }],
      },
      {
        role: "user",
        parts: [{ functionResponse: { id: "gemini-id-7", name: "read_file", response: { output: "x" } } }],
      },
    ]);
  });

  it("reports usage with cached input apart and thinking counted as output", async () => {
    const usage = { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900 };
    const events = await run(await start([{ reasoning: "Some thinking here.", text: "ok", usage }]));
    expect(eventsOfType(events, "usage")).toEqual([
      {
        type: "usage",
        usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 0 },
      },
    ]);
  });

  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [403, false],
  ])(
    "ends HTTP %i with one error event (retryable: %s) carrying Gemini's message",
    async (status, retryable) => {
      const message = `API key not valid: ${API_KEY}`;
      const events = await run(await start([{ fault: { kind: "http", status, message } }]));
      expect(events).toEqual([expect.objectContaining({ type: "error", status, retryable })]);
      const [error] = eventsOfType(events, "error");
      expect(error?.message).toBe(`gemini request failed with HTTP ${status}: API key not valid: [redacted]`);
      expect(server?.requests).toHaveLength(1);
    },
  );

  it("lets the SDK retry a rate limit before the first byte", async () => {
    const client = await start([{ fault: { kind: "http", status: 429 } }, { text: "second time lucky" }], {
      maxRetries: 1,
    });
    const events = await run(client);
    expect(textOf(events)).toBe("second time lucky");
    expect(server?.requests).toHaveLength(2);
  });

  it("ends with a retryable error when the connection drops mid-stream", async () => {
    const events = await run(
      await start([
        { text: "This reply will be cut off half way.", fault: { kind: "drop", afterChunks: 2 } },
      ]),
    );
    expect(textOf(events)).toBe("This reply will ");
    expect(eventsOfType(events, "done")).toEqual([]);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "error", retryable: true });
    expect(last?.type === "error" && last.status).toBeFalsy();
  });

  it.each([
    ["MAX_TOKENS", "max_tokens"],
    ["SAFETY", "other"],
    ["RECITATION", "other"],
  ])("ends a reply that finished with %s as %s", async (finishReason, stopReason) => {
    const client = await start([{ text: "Cut short" }], {
      fetch: rewritingFetch((body) =>
        body.replace('"finishReason":"STOP"', `"finishReason":"${finishReason}"`),
      ),
    });
    const events = await run(client);
    expect(textOf(events)).toBe("Cut short");
    expect(events.at(-1)).toEqual({ type: "done", stopReason });
  });

  it("ends with the truncation error when the stream closes before a finish reason", async () => {
    const client = await start([{ text: "Cut after the first frame." }], {
      fetch: rewritingFetch((body) => body.slice(0, body.indexOf("\r\n\r\n") + 4)),
    });
    const events = await run(client);
    expect(textOf(events)).toBe("Cut afte");
    expect(events.at(-1)).toEqual({
      type: "error",
      message: "gemini stream ended before the reply was complete",
      retryable: true,
    });
  });

  it("stops promptly with done/aborted when aborted mid-stream", async () => {
    const client = await start([{ text: "x".repeat(400), chunkDelayMs: 25 }]);
    const controller = new AbortController();
    const events: LlmEvent[] = [];
    let abortedAt = 0;
    for await (const event of client.stream(requestWith([hello]), controller.signal)) {
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
    const pending = run(client, requestWith([hello]), controller.signal);
    await server?.waitForRequests(1);
    controller.abort();
    expect(await pending).toEqual([{ type: "done", stopReason: "aborted" }]);
  });

  it("ends with a retryable error when a hanging server exceeds the timeout", async () => {
    const events = await run(await start([{ fault: { kind: "hang" } }], { timeoutMs: 200 }));
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
    expect(eventsOfType(events, "error")[0]?.message).toContain("within 200 ms");
  });

  it("sends every request through config.fetch", async () => {
    const seen: string[] = [];
    const counting: typeof fetch = (input, init) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    const client = await start([{ text: "one" }, { text: "two" }], { fetch: counting });
    await run(client);
    await run(client);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(`${server!.url}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`);
  });

  it("talks to the base URL it is given, path prefix included", async () => {
    server = await startFakeModelServer({ script: [{ text: "via proxy" }] });
    const { url } = server;
    const proxied: string[] = [];
    // A proxy at /proxy that forwards to the fake server, as a gateway in front of Gemini would.
    const gateway: typeof fetch = (input, init) => {
      const target = String(input);
      proxied.push(target);
      return fetch(target.replace(`${url}/proxy`, url), init);
    };
    const client = createGeminiClient({
      provider: "gemini",
      wireFormat: "gemini",
      model: "m",
      apiKey: API_KEY,
      baseUrl: `${url}/proxy/`,
      maxRetries: 0,
      fetch: gateway,
    });
    expect(textOf(await run(client))).toBe("via proxy");
    expect(proxied).toEqual([`${url}/proxy/v1beta/models/m:streamGenerateContent?alt=sse`]);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const client = await start([{ text: "never sent" }]);
    const controller = new AbortController();
    controller.abort();
    expect(await run(client, requestWith([hello]), controller.signal)).toEqual([
      { type: "done", stopReason: "aborted" },
    ]);
    expect(server?.requests).toHaveLength(0);
  });

  it("ends with a retryable error when the server cannot be reached", async () => {
    const client = await start([]);
    await server?.close();
    const events = await run(client);
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
    expect(eventsOfType(events, "error")[0]?.message).toMatch(/connection/i);
  });
});

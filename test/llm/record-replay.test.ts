/**
 * Record and replay at the fetch level, through the real adapters and SDKs: a recorded run
 * replays to the same events with the server gone, a different run is caught with a precise
 * message, failures replay as they happened, and no secret reaches the file.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicMessagesClient } from "../../src/llm/anthropic-messages.js";
import { createOpenAiChatClient } from "../../src/llm/openai-chat.js";
import { createRecorder, loadReplay, RecordingError } from "../../src/llm/recording.js";
import type {
  LlmEvent,
  LlmMessage,
  LlmRequest,
  ModelClient,
  ModelConfig,
  WireFormat,
} from "../../src/llm/types.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { assistantMessageFrom, collectEvents, eventsOfType, textOf } from "../support/llm-events.js";

const API_KEY = "sk-test-SECRET-key-0123456789";

const readFile = {
  name: "read_file",
  description: "Reads a file.",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

const formats: Array<{
  wireFormat: WireFormat;
  create: (config: ModelConfig) => ModelClient;
  baseUrl: (url: string) => string;
  toolNamePath: string;
}> = [
  {
    wireFormat: "anthropic-messages",
    create: createAnthropicMessagesClient,
    baseUrl: (url) => url,
    toolNamePath: "body.tools[0].name",
  },
  {
    wireFormat: "openai-chat",
    create: createOpenAiChatClient,
    baseUrl: (url) => `${url}/v1`,
    toolNamePath: "body.tools[0].function.name",
  },
];

const toolTurns: ScriptedTurn[] = [
  { text: "Let me look at it.", toolCalls: [{ name: "read_file", input: { path: "a.ts" } }] },
  { text: "It exports one constant." },
];

type Options = { system?: string; extraMessage?: boolean; toolName?: string; turns?: number };

/**
 * A conversation as an agent holds it: a question, a reply with a tool call, the tool's result
 * and the final reply. Free text (system prompt, tool output) is what changes between runs.
 */
async function converse(client: ModelClient, options: Options = {}): Promise<LlmEvent[][]> {
  const system = options.system ?? `You are Bowline. It is ${new Date().toISOString()}.`;
  const tools = [{ ...readFile, name: options.toolName ?? "read_file" }];
  const messages: LlmMessage[] = [{ role: "user", content: [{ type: "text", text: "What is in a.ts?" }] }];
  const replies: LlmEvent[][] = [];
  for (let turn = 0; turn < (options.turns ?? 2); turn++) {
    const request: LlmRequest = { system, messages: [...messages], tools };
    const events = await collectEvents(client.stream(request, new AbortController().signal));
    replies.push(events);
    const call = eventsOfType(events, "tool_call_end")[0];
    if (!call) break;
    messages.push(assistantMessageFrom(events), {
      role: "user",
      content: [
        {
          type: "tool_result",
          callId: call.id,
          content: [{ type: "text", text: `export const a = ${Date.now()};` }],
        },
      ],
    });
    if (options.extraMessage) messages.push({ role: "assistant", content: [{ type: "text", text: "Hm." }] });
  }
  return replies;
}

function lines(file: string): any[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "bowline-record-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.each(formats)(
  "record and replay over $wireFormat",
  ({ wireFormat, create, baseUrl, toolNamePath }) => {
    let server: FakeModelServer | undefined;

    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    function configFor(url: string, fetch: typeof globalThis.fetch): ModelConfig {
      return {
        provider: "test",
        wireFormat,
        model: "fake-model",
        apiKey: API_KEY,
        baseUrl: baseUrl(url),
        fetch,
        maxRetries: 0,
      };
    }

    /** Records `run` against a fake server playing `script`, then closes the server. */
    async function record<T>(script: ScriptedTurn[], run: (client: ModelClient) => Promise<T>) {
      server = await startFakeModelServer({ script });
      const url = server.url;
      const file = join(dir, "run.jsonl");
      const recorder = createRecorder(
        file,
        { provider: "test", wireFormat, model: "fake-model" },
        { secrets: [API_KEY] },
      );
      const result = await run(create(configFor(url, recorder.fetch)));
      recorder.close();
      await server.close();
      return { file, url, result };
    }

    function replayClient(file: string, url: string) {
      const replay = loadReplay(file, { secrets: [API_KEY] });
      return { replay, client: create(configFor(url, replay.fetch)) };
    }

    it("replays a multi-turn conversation with a tool call to the same events, without the server", async () => {
      const { file, url, result: recorded } = await record(toolTurns, (client) => converse(client));
      expect(recorded).toHaveLength(2);
      expect(eventsOfType(recorded[0]!, "tool_call_end")).toHaveLength(1);
      expect(textOf(recorded[1]!)).toBe("It exports one constant.");

      const { replay, client } = replayClient(file, url);
      const replayed = await converse(client, { system: "You are Bowline. Another day, another directory." });
      expect(replayed).toEqual(recorded);
      expect(replay.unplayed).toBe(0);
      expect(replay.failure).toBeUndefined();
      expect(() => replay.assertComplete()).not.toThrow();
      expect(replay.header).toMatchObject({ type: "header", version: 1, provider: "test", wireFormat });
    });

    it("writes a header and one line per exchange, with the key nowhere and mode 0600", async () => {
      // A pause between chunks, so they arrive one by one.
      const slowTurns = toolTurns.map((turn) => ({ ...turn, chunkDelayMs: 5 }));
      const { file } = await record(slowTurns, (client) => converse(client, { system: `Key: ${API_KEY}` }));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const text = readFileSync(file, "utf8");
      expect(text).not.toContain(API_KEY);
      const [header, ...exchanges] = lines(file);
      expect(header).toMatchObject({ type: "header", provider: "test", wireFormat, model: "fake-model" });
      expect(exchanges.map((exchange) => exchange.index)).toEqual([0, 1]);
      const [first] = exchanges;
      expect(first.request.method).toBe("POST");
      expect(first.request.path).toMatch(/^\/v1\/(messages|chat\/completions)$/);
      expect(first.request.json.model).toBe("fake-model");
      for (const name of Object.keys(first.request.headers)) expect(name).not.toMatch(/auth|key/i);
      expect(first.response.status).toBe(200);
      expect(first.response.headers["content-type"]).toContain("text/event-stream");
      expect(first.response.chunks.length).toBeGreaterThan(3);
      expect(first.response.chunks.every((chunk: any) => typeof chunk.text === "string")).toBe(true);
      expect(first.response.end.kind).toBe("complete");
    });

    it("fails a request of a different shape with the first difference and its JSON path", async () => {
      const { file, url } = await record(toolTurns, (client) => converse(client));
      const { replay, client } = replayClient(file, url);
      const replayed = await converse(client, { extraMessage: true, turns: 2 });
      const error = replayed[1]?.at(-1);
      expect(error).toMatchObject({ type: "error", status: 400, retryable: false });
      expect(error?.type === "error" && error.message).toMatch(
        /replay diverged at request 2: body\.messages has (\d+) items, the recording has (\d+)/,
      );
      expect(replay.failure).toMatch(/^replay diverged at request 2: body\.messages has/);
      expect(() => replay.assertComplete()).toThrow(RecordingError);
    });

    it("names a tool that differs from the recorded one", async () => {
      const { file, url } = await record(toolTurns, (client) => converse(client));
      const { replay, client } = replayClient(file, url);
      const [events] = await converse(client, { toolName: "write_file" });
      const expected = `replay diverged at request 1: ${toolNamePath} is "write_file", the recording has "read_file"`;
      expect(events).toEqual([expect.objectContaining({ type: "error", status: 400 })]);
      expect(events?.[0]?.type === "error" && events[0].message).toContain(expected);
      expect(replay.failure).toBe(expected);
    });

    it("fails a request beyond the recording, and reports exchanges left unplayed", async () => {
      const { file, url } = await record(toolTurns.slice(0, 1), (client) => converse(client, { turns: 1 }));
      const short = replayClient(file, url);
      const replayed = await converse(short.client);
      expect(replayed[1]?.at(-1)).toMatchObject({ type: "error", status: 400 });
      expect(short.replay.failure).toBe("replay has no recorded exchange for request 2: the recording has 1");

      const unused = replayClient(file, url);
      expect(unused.replay.unplayed).toBe(1);
      try {
        unused.replay.assertComplete();
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({ code: "replay_incomplete" });
        expect((error as Error).message).toMatch(
          /left 1 of 1 recorded exchanges unplayed, from request 1 \(POST/,
        );
      }
    });

    it("replays an HTTP error with its status, message and headers", async () => {
      const script: ScriptedTurn[] = [
        { fault: { kind: "http", status: 429, message: "Slow down, please." } },
      ];
      const { file, url, result } = await record(script, (client) => converse(client, { turns: 1 }));
      const [events] = result;
      expect(events).toEqual([expect.objectContaining({ type: "error", status: 429, retryable: true })]);
      expect(events?.[0]?.type === "error" && events[0].message).toContain("Slow down, please.");
      const [, exchange] = lines(file);
      expect(exchange.response.status).toBe(429);
      expect(Object.keys(exchange.response.headers)).toContain("content-type");

      const { client } = replayClient(file, url);
      expect(await converse(client, { turns: 1 })).toEqual(result);
    });

    it("replays a connection dropped mid-stream as the same error", async () => {
      const script: ScriptedTurn[] = [
        { text: "This reply will be cut off half way.", fault: { kind: "drop", afterChunks: 4 } },
      ];
      const { file, url, result } = await record(script, (client) => converse(client, { turns: 1 }));
      const [events] = result;
      expect(eventsOfType(events!, "text_delta").length).toBeGreaterThan(0);
      expect(events?.at(-1)).toMatchObject({ type: "error", retryable: true });
      const [, exchange] = lines(file);
      expect(exchange.response.end.kind).toBe("error");
      expect(exchange.response.end.error[0]).toMatchObject({ name: "TypeError", message: "terminated" });

      const { client } = replayClient(file, url);
      expect(await converse(client, { turns: 1 })).toEqual(result);
    });

    it("replays a refused connection as the same error", async () => {
      const { file, url, result } = await record([], async (client) => {
        await server!.close();
        return converse(client, { turns: 1 });
      });
      expect(result[0]).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
      const [, exchange] = lines(file);
      expect(exchange.response).toBeUndefined();
      expect(exchange.error.error.length).toBeGreaterThan(1);

      const { client } = replayClient(file, url);
      expect(await converse(client, { turns: 1 })).toEqual(result);
    });

    it("replays a reply the client aborted as pending until the replay aborts too", async () => {
      const script: ScriptedTurn[] = [{ text: "A slow reply that nobody waits for.", chunkDelayMs: 30 }];
      const request: LlmRequest = {
        system: "s",
        messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
        tools: [],
      };
      async function abortAfterFirstText(client: ModelClient): Promise<LlmEvent[]> {
        const controller = new AbortController();
        const events: LlmEvent[] = [];
        for await (const event of client.stream(request, controller.signal)) {
          events.push(event);
          if (event.type === "text_delta") controller.abort();
        }
        return events;
      }
      const { file, url, result } = await record(script, abortAfterFirstText);
      expect(result.at(-1)).toEqual({ type: "done", stopReason: "aborted" });
      const [, exchange] = lines(file);
      expect(exchange.response.end.kind).toBe("cancelled");

      const { client } = replayClient(file, url);
      const replayed = await abortAfterFirstText(client);
      expect(replayed[0]).toEqual(result[0]);
      expect(replayed.at(-1)).toEqual({ type: "done", stopReason: "aborted" });
    });

    it("replays at the recorded pace with realTime", async () => {
      const script: ScriptedTurn[] = [{ text: "Twenty four characters..", chunkDelayMs: 20 }];
      const { file, url, result } = await record(script, (client) => converse(client, { turns: 1 }));
      const [, exchange] = lines(file);
      const recordedMs = exchange.response.end.ms;
      expect(recordedMs).toBeGreaterThanOrEqual(40);
      const replay = loadReplay(file, { realTime: true });
      const started = performance.now();
      expect(await converse(create(configFor(url, replay.fetch)), { turns: 1 })).toEqual(result);
      expect(performance.now() - started).toBeGreaterThanOrEqual(recordedMs - 5);
    });
  },
);

/** A server that answers each request with the given chunks, waiting for `gate(i)` before chunk i. */
async function startRawServer(
  chunks: Uint8Array[],
  contentType: string,
  gate = (_i: number) => Promise.resolve(),
) {
  const server = createServer(async (req, res) => {
    req.resume();
    res.writeHead(200, {
      "content-type": contentType,
      "x-request-id": `req_${API_KEY}`,
      "set-cookie": "s=1",
    });
    res.flushHeaders();
    for (const [i, chunk] of chunks.entries()) {
      await gate(i);
      await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
}

async function readChunks(response: Response): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body!) chunks.push(chunk);
  return chunks;
}

describe("record and replay at the fetch level", () => {
  const meta = { provider: "test", wireFormat: "bedrock-converse", model: "fake-model" } as const;

  it("round-trips binary chunks byte for byte, stored as base64", async () => {
    const sent = [
      new Uint8Array([0, 0, 0, 0x40, 0xff, 0xfe, 0x80, 0x81]),
      new Uint8Array([0xc3, 0x28, 0xa0, 0xa1, 0x00, 0x7f]),
      new TextEncoder().encode("plain ascii frame"),
    ];
    const server = await startRawServer(sent, "application/vnd.amazon.eventstream");
    const file = join(dir, "binary.jsonl");
    const recorder = createRecorder(file, meta, { secrets: [API_KEY] });
    const body = JSON.stringify({ messages: [{ role: "user", content: [{ text: "hi" }] }] });
    const response = await recorder.fetch(`${server.url}/model/fake-model/converse-stream`, {
      method: "POST",
      body,
    });
    const received = await readChunks(response);
    recorder.close();
    await server.close();
    expect(Buffer.concat(received)).toEqual(Buffer.concat(sent));

    const [, exchange] = lines(file);
    expect(exchange.response.chunks.every((chunk: any) => typeof chunk.base64 === "string")).toBe(true);
    expect(exchange.request.json).toEqual(JSON.parse(body));

    const replay = loadReplay(file);
    const replayed = await replay.fetch(`${server.url}/model/fake-model/converse-stream`, {
      method: "POST",
      body,
    });
    expect(replayed.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    expect((await readChunks(replayed)).map((chunk) => Buffer.from(chunk))).toEqual(
      received.map((chunk) => Buffer.from(chunk)),
    );
    expect(replay.unplayed).toBe(0);
  });

  it("hands each chunk to the client before the next one arrives", async () => {
    let releaseSecond!: () => void;
    const secondMayGo = new Promise<void>((resolve) => {
      releaseSecond = resolve;
    });
    const encoder = new TextEncoder();
    const server = await startRawServer(
      [encoder.encode("first "), encoder.encode("second")],
      "text/plain",
      (i) => (i === 1 ? secondMayGo : Promise.resolve()),
    );
    const recorder = createRecorder(join(dir, "live.jsonl"), meta, { secrets: [] });
    const response = await recorder.fetch(server.url, { method: "POST", body: "{}" });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("first ");
    releaseSecond();
    const second = await reader.read();
    expect(new TextDecoder().decode(second.value)).toBe("second");
    expect((await reader.read()).done).toBe(true);
    recorder.close();
    await server.close();
  });

  it("keeps secrets out of URLs, headers and bodies, in requests and replies", async () => {
    const server = await startRawServer(
      [new TextEncoder().encode(`{"echo":"${API_KEY}"}`)],
      "application/json",
    );
    const file = join(dir, "secrets.jsonl");
    const recorder = createRecorder(file, meta, { secrets: [API_KEY] });
    const response = await recorder.fetch(
      new Request(
        `${server.url}/v1beta/models/m:streamGenerateContent?alt=sse&key=${API_KEY}&other=${API_KEY}`,
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${API_KEY}`,
            "x-api-key": API_KEY,
            "x-goog-api-key": API_KEY,
            "api-key": API_KEY,
            cookie: "session=abc",
            "x-amz-security-token": "aws-session-token",
            "x-amz-date": "20250101T000000Z",
            "x-custom": `carries ${API_KEY}`,
          },
          body: JSON.stringify({ prompt: `my key is ${API_KEY}` }),
        },
      ),
    );
    expect(await response.text()).toContain(API_KEY);
    recorder.close();
    await server.close();

    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain("aws-session-token");
    expect(text).not.toContain("session=abc");
    const [, exchange] = lines(file);
    expect(exchange.request.path).toBe(
      "/v1beta/models/m:streamGenerateContent?alt=sse&key=[redacted]&other=[redacted]",
    );
    expect(Object.keys(exchange.request.headers).sort()).toEqual(["content-type", "x-amz-date", "x-custom"]);
    expect(exchange.request.json).toEqual({ prompt: "my key is [redacted]" });
    expect(exchange.response.headers).toEqual({
      "content-type": "application/json",
      "x-request-id": "req_[redacted]",
    });
  });

  it("drops a torn last line and rejects a file that is not a recording", async () => {
    const file = join(dir, "torn.jsonl");
    const recorder = createRecorder(file, meta, { secrets: [] });
    recorder.close();
    writeFileSync(file, `${readFileSync(file, "utf8")}{"type":"exchange","ind`);
    expect(loadReplay(file).unplayed).toBe(0);

    writeFileSync(file, '{"type":"header","version":1}\n');
    expect(() => loadReplay(file)).toThrow(/is not a valid recording line at createdAt/);
    writeFileSync(file, "");
    expect(() => loadReplay(file)).toThrow(RecordingError);
  });
});

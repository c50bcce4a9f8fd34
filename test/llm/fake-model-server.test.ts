/** The fake model server itself, checked at the wire level with plain fetch. */
import { afterEach, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/llm/create-client.js";
import {
  type FakeModelServer,
  type FakeModelServerOptions,
  startFakeModelServer,
} from "../support/fake-model-server.js";
import { collectEvents } from "../support/llm-events.js";

let server: FakeModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: FakeModelServerOptions): Promise<FakeModelServer> {
  server = await startFakeModelServer(options);
  return server;
}

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test": "yes" },
    body: JSON.stringify(body),
  });
}

/** Splits an SSE body into its events: the `event:` name (if any) and the `data:` text. */
function parseSse(text: string): Array<{ event?: string; data: string }> {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7);
      const data = lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "";
      return event === undefined ? { data } : { event, data };
    });
}

describe("fake model server", () => {
  it("answers an unknown path with a 404 JSON error and records nothing", async () => {
    await start({ script: [{ text: "unused" }] });
    const response = await post("/v1/completions", {});
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining("/v1/completions") },
    });
    const get = await fetch(`${server!.url}/v1/messages`);
    expect(get.status).toBe(404);
    expect(server!.requests).toEqual([]);
  });

  it("answers HTTP 500 in each provider's error shape once the script is exhausted", async () => {
    await start({ script: [{ text: "only one" }] });
    await (await post("/v1/messages", { model: "m", stream: true })).text();
    const anthropic = await post("/v1/messages", { model: "m", stream: true });
    expect(anthropic.status).toBe(500);
    expect(await anthropic.json()).toMatchObject({
      type: "error",
      error: { type: "api_error", message: "fake model: script exhausted after 1 turns" },
    });
    const openai = await post("/v1/chat/completions", { model: "m", stream: true });
    expect(openai.status).toBe(500);
    expect(await openai.json()).toMatchObject({
      error: { type: "server_error", message: "fake model: script exhausted after 1 turns" },
    });
  });

  it("surfaces script exhaustion through an SDK as an error event", async () => {
    await start({ script: [] });
    const client = await createModelClient({
      provider: "openai",
      wireFormat: "openai-chat",
      model: "m",
      apiKey: "k",
      baseUrl: `${server!.url}/v1`,
      maxRetries: 0,
    });
    const request = { system: "", messages: [{ role: "user" as const, content: [] }], tools: [] };
    const events = await collectEvents(client.stream(request, new AbortController().signal));
    expect(events).toEqual([
      expect.objectContaining({
        type: "error",
        message: expect.stringContaining("script exhausted after 0 turns"),
      }),
    ]);
  });

  it("records each request and passes it to a script function", async () => {
    const seen: Array<[string, number]> = [];
    await start({
      script: (request, index) => {
        seen.push([request.body.messages[0].content, index]);
        return index < 2 ? { text: `reply ${index}` } : undefined;
      },
    });
    for (const content of ["first", "second", "third"]) {
      await (
        await post("/v1/chat/completions", { model: "m", stream: true, messages: [{ content }] })
      ).text();
    }
    expect(seen).toEqual([
      ["first", 0],
      ["second", 1],
      ["third", 2],
    ]);
    const [first] = server!.requests;
    expect(first).toMatchObject({ format: "openai-chat", path: "/v1/chat/completions" });
    expect(first?.headers["x-test"]).toBe("yes");
    expect(first?.receivedAt).toBeGreaterThan(0);
    const exhausted = await post("/v1/chat/completions", {
      model: "m",
      stream: true,
      messages: [{ content: "" }],
    });
    expect(((await exhausted.json()) as any).error.message).toBe(
      "fake model: script exhausted after 2 turns",
    );
  });

  it("streams Anthropic events with ping, chunked deltas and usage", async () => {
    await start({
      script: [{ text: "abcdefghij", toolCalls: [{ name: "t", input: { a: 1 } }] }],
      chunkSize: 3,
    });
    const response = await post("/v1/messages", { model: "claude-x", stream: true });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      ...Array(4).fill("content_block_delta"),
      "content_block_stop",
      "content_block_start",
      ...Array(4).fill("content_block_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const data = events.map((e) => JSON.parse(e.data));
    expect(data[0].message).toMatchObject({ model: "claude-x", usage: { input_tokens: expect.any(Number) } });
    expect(data[3].delta).toEqual({ type: "text_delta", text: "abc" });
    expect(data[8].content_block).toMatchObject({ type: "tool_use", id: "toolu_fake_1", name: "t" });
    expect(data.at(-2)).toMatchObject({
      delta: { stop_reason: "tool_use" },
      usage: { output_tokens: expect.any(Number) },
    });
  });

  it("streams OpenAI chunks, a usage chunk only when asked, then [DONE]", async () => {
    await start({ script: [{ text: "abcdef" }, { text: "abcdef" }], chunkSize: 4 });
    const withUsage = parseSse(
      await (
        await post("/v1/chat/completions", {
          model: "m",
          stream: true,
          stream_options: { include_usage: true },
        })
      ).text(),
    );
    expect(withUsage.at(-1)?.data).toBe("[DONE]");
    const chunks = withUsage.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.map((c) => c.choices[0]?.delta.content)).toEqual(["", "abcd", "ef", undefined, undefined]);
    expect(chunks.at(-2).choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });

    const withoutUsage = parseSse(
      await (await post("/v1/chat/completions", { model: "m", stream: true })).text(),
    );
    expect(withoutUsage.slice(0, -1).every((e) => !("usage" in JSON.parse(e.data)))).toBe(true);
  });

  it("resolves waitForRequests once enough requests arrived, and rejects after the timeout", async () => {
    await start({ script: [{ fault: { kind: "hang" } }] });
    const waiting = server!.waitForRequests(1);
    void post("/v1/messages", { model: "m", stream: true }).catch(() => undefined);
    await waiting;
    await expect(server!.waitForRequests(2, 50)).rejects.toThrow(/expected 2 requests within 50 ms, got 1/);
  });

  it("closes promptly while a request hangs", async () => {
    await start({ script: [{ fault: { kind: "hang" } }] });
    const pending = post("/v1/messages", { model: "m", stream: true }).catch((error: unknown) => error);
    await server!.waitForRequests(1);
    const startedAt = Date.now();
    await server!.close();
    expect(Date.now() - startedAt).toBeLessThan(500);
    expect(await pending).toBeInstanceOf(Error);
  });
});

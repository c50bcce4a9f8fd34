/**
 * A scripted model server on 127.0.0.1 that speaks the real streaming wire formats
 * (Anthropic Messages, OpenAI Chat Completions), so the official SDKs talk to it unchanged.
 * node:http only, so it can be bundled into the CLI for demos.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { ModelConfig } from "../../src/llm/types.js";
import { AnthropicPromptCache } from "./anthropic-prompt-cache.js";
import type { RecordedRequest, ScriptedTurn, TurnContext } from "./fake-model-script.js";
import type { WireCodec } from "./wire-codec.js";
import { WIRE_CODECS } from "./wire-codecs.js";

export type { RecordedRequest, ScriptedToolCall, ScriptedTurn } from "./fake-model-script.js";

/** A model config for the Anthropic Messages format of the server at `baseUrl`. */
export function fakeAnthropicConfig(baseUrl: string, model = "m"): ModelConfig {
  return { provider: "anthropic", wireFormat: "anthropic-messages", model, apiKey: "sk-ant-fake", baseUrl };
}

export interface FakeModelServerOptions {
  script: ScriptedTurn[] | ((request: RecordedRequest, index: number) => ScriptedTurn | undefined);
  /** Characters per text or arguments chunk (default 8). */
  chunkSize?: number;
  /**
   * Anthropic format: count cached input from the request's cache breakpoints (see
   * AnthropicPromptCache) and report it as usage, unless the turn scripts its own.
   */
  promptCache?: boolean;
}

export interface FakeModelServer {
  /** e.g. http://127.0.0.1:PORT (Anthropic SDK baseURL = url; OpenAI SDK baseURL = url + "/v1"). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Resolves when the server has received n requests in total; rejects after the timeout. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Stops listening and destroys open sockets, hung ones included. Safe to call twice. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendError(
  res: ServerResponse,
  codec: WireCodec,
  status: number,
  message: string,
  n: number,
  headers: Record<string, string> = {},
) {
  const error = codec.errorResponse(status, message, n);
  sendJson(res, status, error.body, { ...error.headers, ...headers });
}

function writeFrame(res: ServerResponse, frame: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    res.write(frame, () => resolve());
  });
}

/** Wall-clock milliseconds with sub-millisecond precision (for harness-overhead benchmarks). */
const preciseNow = () => performance.timeOrigin + performance.now();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams the frames, honouring the turn's chunk delay and drop fault; stops if the client leaves. */
async function streamFrames(
  res: ServerResponse,
  frames: Array<string | Uint8Array>,
  turn: ScriptedTurn,
  contentType: string,
): Promise<void> {
  let clientGone = false;
  res.on("close", () => {
    clientGone = true;
  });
  res.writeHead(200, { "content-type": contentType, "cache-control": "no-cache" });
  res.flushHeaders();
  const fault = turn.fault;
  const cutAfter =
    fault?.kind === "drop" || fault?.kind === "truncate" || fault?.kind === "stall"
      ? fault.afterChunks
      : undefined;
  for (const [i, frame] of frames.entries()) {
    if (clientGone || i === cutAfter) break;
    if (i > 0 && turn.chunkDelayMs) await sleep(turn.chunkDelayMs);
    if (clientGone) return;
    await writeFrame(res, frame);
  }
  if (clientGone) return;
  if (fault?.kind === "stall") return; // The socket stays open until the client gives up.
  if (fault?.kind === "drop") {
    // Headers alone have no write callback to wait for; give them a moment to leave.
    if (fault.afterChunks === 0) await sleep(20);
    res.socket?.destroy();
    return;
  }
  res.end();
}

export function startFakeModelServer(options: FakeModelServerOptions): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  let toolCallNumber = 0;
  let turnsPlayed = 0;
  const chunkSize = options.chunkSize ?? 8;
  const promptCache = options.promptCache ? new AnthropicPromptCache() : undefined;

  function nextTurn(request: RecordedRequest, index: number): ScriptedTurn | undefined {
    if (typeof options.script === "function") return options.script(request, index);
    return options.script[index];
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path = "/", queryText = ""] = (req.url ?? "/").split("?");
    const codec = req.method === "POST" ? WIRE_CODECS.find((c) => c.matches(path)) : undefined;
    if (!codec) {
      sendJson(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `fake model: no route for ${req.method} ${path}` },
      });
      return;
    }
    const format = codec.format;
    const raw = await readBody(req);
    const number = requests.length + 1;
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      sendError(res, codec, 400, "fake model: request body is not valid JSON", number);
      return;
    }
    const request: RecordedRequest = { format, path, headers: req.headers, body, receivedAt: preciseNow() };
    requests.push(request);
    for (const wake of waiters) wake();

    if (promptCache && format === "anthropic-messages") {
      try {
        request.promptCache = promptCache.account(body);
      } catch (error) {
        sendError(res, codec, 400, (error as Error).message, number);
        return;
      }
    }
    const scripted = nextTurn(request, number - 1);
    const turn =
      scripted && request.promptCache
        ? { ...scripted, usage: { ...request.promptCache, ...scripted.usage } }
        : scripted;
    if (!turn) {
      sendError(res, codec, 500, `fake model: script exhausted after ${turnsPlayed} turns`, number);
      return;
    }
    turnsPlayed++;
    if (turn.fault?.kind === "hang") return;
    if (turn.fault?.kind === "reset") {
      req.socket.destroy();
      return;
    }
    if (turn.fault?.kind === "http") {
      const message = turn.fault.message ?? `fake model: scripted HTTP ${turn.fault.status}`;
      const after = turn.fault.retryAfterSeconds;
      sendError(
        res,
        codec,
        turn.fault.status,
        message,
        number,
        after === undefined ? {} : { "retry-after": String(after) },
      );
      return;
    }
    if (!codec.isStreaming(path, new URLSearchParams(queryText), body)) {
      sendError(res, codec, 400, "fake model: only streaming requests are supported", number);
      return;
    }
    const context: TurnContext = {
      requestNumber: number,
      model: codec.modelOf(path, body) ?? "fake-model",
      chunkSize,
      defaultInputTokens: Math.max(1, Math.ceil(raw.length / 4)),
      nextToolCallNumber: () => ++toolCallNumber,
    };
    const frames = codec.frames(turn, context, body);
    await streamFrames(res, frames, turn, codec.streamContentType);
    request.respondedAt = preciseNow();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake model: ${String(error)}` } });
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  function waitForRequests(n: number, timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (requests.length < n) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(`fake model: expected ${n} requests within ${timeoutMs} ms, got ${requests.length}`),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }

  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= new Promise((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  }

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, requests, waitForRequests, close });
    });
  });
}

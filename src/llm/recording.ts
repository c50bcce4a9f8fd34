/**
 * Record and replay of provider traffic at the HTTP level, so it works for every wire format:
 * each adapter hands `ModelConfig.fetch` to its SDK, and both halves are a fetch.
 *
 * Recording:
 *   const recorder = createRecorder("run.jsonl", { provider, wireFormat, model }, { secrets: [apiKey] });
 *   const client = createModelClient({ ...config, fetch: recorder.fetch });
 *   ... run ...
 *   recorder.close();
 * Every request goes through to the network (or `options.fetch`); the reply reaches the SDK
 * chunk by chunk as it arrives, while the recorder notes each chunk and its time.
 *
 * Replay:
 *   const replay = loadReplay("run.jsonl", { secrets: [apiKey] });
 *   const client = createModelClient({ ...config, fetch: replay.fetch });
 *   ... run ...
 *   replay.assertComplete(); // throws unless every exchange was played and every request matched
 * Each request gets the next recorded reply (status, headers, chunks, or the recorded network
 * error), as fast as possible or with `realTime: true` at the recorded pace. A request must match
 * the recorded one in shape (method, path and query, JSON body structure; the rule is in
 * recording-shape.ts). When it does not, or the recording has no exchange left, that request and
 * every later one get an HTTP 400 whose message says where, e.g.
 * `replay diverged at request 3: body.messages has 5 items, the recording has 4`; `failure`
 * holds the same text.
 *
 * The file is JSONL, mode 0600. Line 1: `{type:"header", version, createdAt, provider,
 * wireFormat, model}`. Then one line per exchange, appended and flushed to disk as the exchange
 * ends: `{type:"exchange", index, request:{method, path, headers, json|text|base64},
 * response:{ms, status, statusText, headers, chunks:[{ms, text|base64}], end:{kind, ms, error?}}}`
 * or `error:{ms, error}` when fetch itself failed, or `cancelled:{ms}` when the client aborted it
 * before the headers came. `ms` counts from the request's start. What the client aborted (an
 * exchange or a body) replays as still pending until the replayed request is aborted too.
 * Secrets: credential headers (authorization, x-api-key, x-goog-api-key, api-key, cookies, AWS
 * signature and security-token headers: every name containing key, token, secret, auth, cookie,
 * signature, credential or password) are left out, credential query parameters are blanked, and
 * every value in `secrets` is blanked wherever it appears: URL, headers, bodies, chunks, errors.
 * Response headers are kept only when an SDK reads them (content type, retry hints, request ids,
 * rate limits).
 */
import { closeSync, fchmodSync, fdatasyncSync, openSync, writeSync } from "node:fs";
import {
  encodeChunk,
  isTextualContentType,
  RECORDING_VERSION,
  type RecordedEnd,
  type RecordedExchange,
  type RecordedResponse,
  type RecordingHeader,
  type RecordingMeta,
  recordError,
} from "./recording-format.js";
import { captureRequest, keptResponseHeaders, recordRequest } from "./recording-request.js";

export type { RecordingHeader, RecordingMeta } from "./recording-format.js";
export { loadReplay, RecordingError, type Replay, type ReplayOptions } from "./recording-replay.js";

export interface RecorderOptions {
  /** Values (API keys) that must not reach the file. */
  secrets: readonly string[];
  /** The fetch that reaches the network (default: the global fetch at the time of each call). */
  fetch?: typeof globalThis.fetch;
}

export interface Recorder {
  /** Passes each request on and records the exchange. Rejects once the recorder is closed. */
  readonly fetch: typeof globalThis.fetch;
  /** Writes exchanges still in progress as they stand (`unfinished`) and closes the file. Idempotent. */
  close(): void;
}

type InProgress = { exchange: RecordedExchange; elapsed: () => number };

/**
 * The response handed to the SDK: the same status and headers, and a body that passes each chunk
 * on as it arrives while noting it in `recorded`. `onEnd` runs once the body has ended in any way.
 */
function recordingResponse(
  response: Response,
  recorded: RecordedResponse,
  elapsed: () => number,
  secrets: readonly string[],
  signal: AbortSignal | undefined,
  onEnd: () => void,
): Response {
  const end = (how: RecordedEnd) => {
    recorded.end = how;
    onEnd();
  };
  if (!response.body) {
    end({ kind: "complete", ms: elapsed() });
    return response;
  }
  const reader = response.body.getReader();
  const textual = isTextualContentType(response.headers.get("content-type"));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let result: Awaited<ReturnType<typeof reader.read>>;
      try {
        result = await reader.read();
      } catch (error) {
        // The client's own abort ends the body with an error; it is the client's doing, not the server's.
        if (signal?.aborted) end({ kind: "cancelled", ms: elapsed() });
        else end({ kind: "error", ms: elapsed(), error: recordError(error, secrets) });
        throw error;
      }
      if (result.done) {
        end({ kind: "complete", ms: elapsed() });
        controller.close();
        return;
      }
      recorded.chunks.push(encodeChunk(result.value, elapsed(), textual, secrets));
      controller.enqueue(result.value);
    },
    cancel(reason) {
      end({ kind: "cancelled", ms: elapsed() });
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** Starts a recording in `file` (created or truncated, mode 0600) and writes its header line. */
export function createRecorder(file: string, meta: RecordingMeta, options: RecorderOptions): Recorder {
  const { secrets } = options;
  const fd = openSync(file, "w", 0o600);
  fchmodSync(fd, 0o600);
  const inProgress = new Map<number, InProgress>();
  let requests = 0;
  let closed = false;

  /** Appends one line and flushes it, so a crash loses at most the exchanges still in progress. */
  function append(line: RecordingHeader | RecordedExchange): void {
    writeSync(fd, `${JSON.stringify(line)}\n`);
    fdatasyncSync(fd);
  }

  function finish(index: number): void {
    const entry = inProgress.get(index);
    if (!entry || closed) return;
    inProgress.delete(index);
    append(entry.exchange);
  }

  append({ type: "header", version: RECORDING_VERSION, createdAt: new Date().toISOString(), ...meta });

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const index = requests++;
    const start = performance.now();
    const elapsed = () => Math.round(performance.now() - start);
    const captured = await captureRequest(input, init);
    if (closed) throw new Error(`the recording ${file} is closed; no more requests can be recorded`);
    const exchange: RecordedExchange = { type: "exchange", index, request: recordRequest(captured, secrets) };
    inProgress.set(index, { exchange, elapsed });
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(...captured.forward);
    } catch (error) {
      if (captured.signal?.aborted) exchange.cancelled = { ms: elapsed() };
      else exchange.error = { ms: elapsed(), error: recordError(error, secrets) };
      finish(index);
      throw error;
    }
    const recorded: RecordedResponse = {
      ms: elapsed(),
      status: response.status,
      statusText: response.statusText,
      headers: keptResponseHeaders(response.headers, secrets),
      chunks: [],
      end: { kind: "unfinished", ms: elapsed() },
    };
    exchange.response = recorded;
    return recordingResponse(response, recorded, elapsed, secrets, captured.signal, () => finish(index));
  };

  function close(): void {
    if (closed) return;
    for (const { exchange, elapsed } of inProgress.values()) {
      if (exchange.response) exchange.response.end = { kind: "unfinished", ms: elapsed() };
      append(exchange);
    }
    inProgress.clear();
    closed = true;
    closeSync(fd);
  }

  return { fetch, close };
}

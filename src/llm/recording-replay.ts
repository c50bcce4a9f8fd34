/** Plays a recording back as a fetch; see recording.ts for the API and the file format. */
import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import {
  decodeChunk,
  RECORDING_VERSION,
  type RecordedExchange,
  type RecordedRequest,
  type RecordedResponse,
  type RecordingHeader,
  rebuildError,
  recordedExchangeSchema,
  recordingHeaderSchema,
} from "./recording-format.js";
import { captureRequest, recordRequest } from "./recording-request.js";
import { shapeDifference } from "./recording-shape.js";

export type RecordingErrorCode = "invalid_recording" | "replay_failed" | "replay_incomplete";

/** A recording that cannot be read, or a replay that did not go as recorded. */
export class RecordingError extends Error {
  constructor(
    readonly code: RecordingErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RecordingError";
  }
}

export interface ReplayOptions {
  /** Wait as long as the recorded run did for the headers and each chunk (default: no waiting). */
  realTime?: boolean;
  /** Values blanked in replayed requests before they are compared, as the recorder did. */
  secrets?: readonly string[];
}

export interface Replay {
  readonly header: RecordingHeader;
  /** Answers each request with the next recorded exchange; never touches the network. */
  readonly fetch: typeof globalThis.fetch;
  /** Recorded exchanges not played yet. */
  readonly unplayed: number;
  /** The first divergence or request beyond the recording, if any. */
  readonly failure: string | undefined;
  /** Throws a `RecordingError` unless every exchange was played and every request matched. */
  assertComplete(): void;
}

function parseLine<T>(line: string, schema: z.ZodMiniType<T>, where: string): T {
  const parsed = z.safeParse(schema, JSON.parse(line));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  throw new RecordingError(
    "invalid_recording",
    `${where} is not a valid recording line${at}: ${issue?.message}`,
  );
}

/** Reads a recording; a torn last line (the recording process died mid-write) is dropped. */
function readRecording(file: string): { header: RecordingHeader; exchanges: RecordedExchange[] } {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .map((text, i) => ({ text, where: `${file}:${i + 1}` }))
    .filter((line) => line.text.trim() !== "");
  const [first, ...rest] = lines;
  if (!first) throw new RecordingError("invalid_recording", `${file} is empty, not a recording`);
  try {
    const header = parseLine(first.text, recordingHeaderSchema, first.where);
    if (header.version !== RECORDING_VERSION) {
      throw new RecordingError(
        "invalid_recording",
        `${file} is a version ${header.version} recording; this Bowline reads version ${RECORDING_VERSION}`,
      );
    }
    const exchanges: RecordedExchange[] = [];
    for (const [i, line] of rest.entries()) {
      try {
        exchanges.push(parseLine(line.text, recordedExchangeSchema, line.where));
      } catch (error) {
        if (!(error instanceof SyntaxError && i === rest.length - 1)) throw error;
      }
    }
    return { header, exchanges: exchanges.sort((a, b) => a.index - b.index) };
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new RecordingError("invalid_recording", `${file} has a line that is not JSON: ${error.message}`);
    }
    throw error;
  }
}

function bodyKind(request: RecordedRequest): string {
  if (request.json !== undefined) return "JSON";
  if (request.text !== undefined) return "text";
  if (request.base64 !== undefined) return "binary";
  return "empty";
}

/** The first way a replayed request departs from the recorded one (see recording-shape.ts). */
function requestDifference(actual: RecordedRequest, recorded: RecordedRequest): string | undefined {
  if (actual.method !== recorded.method || actual.path !== recorded.path) {
    return `${actual.method} ${actual.path}, the recording has ${recorded.method} ${recorded.path}`;
  }
  if (bodyKind(actual) !== bodyKind(recorded)) {
    return `the body is ${bodyKind(actual)}, the recording has ${bodyKind(recorded)}`;
  }
  return bodyKind(actual) === "JSON" ? shapeDifference(actual.json, recorded.json, "body") : undefined;
}

/** A provider-neutral error reply: the SDKs find `error.message` or `message`, and do not retry it. */
function failureResponse(message: string): Response {
  const body = { type: "error", message, error: { type: "replay_failed", message } };
  return new Response(JSON.stringify(body), {
    status: 400,
    statusText: "Replay Failed",
    headers: {
      "content-type": "application/json",
      "x-should-retry": "false",
      "x-amzn-errortype": "ReplayFailedException",
    },
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits until `ms` after `start` (only in real time), rejecting when the request is aborted. */
function waitUntil(start: number, ms: number, realTime: boolean, signal: AbortSignal | undefined) {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const delay = realTime ? start + ms - performance.now() : 0;
  if (delay <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, delay);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What the client cancelled while recording stays pending until the replayed request is aborted. */
function untilAborted(signal: AbortSignal | undefined, number: number): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) {
      reject(
        new RecordingError("replay_failed", `request ${number} was cancelled by the client while recording`),
      );
      return;
    }
    if (signal.aborted) reject(abortReason(signal));
    else signal.addEventListener("abort", () => reject(abortReason(signal)), { once: true });
  });
}

/**
 * The recorded body as a stream. A body the client cancelled while recording stays open after
 * its last chunk, as the server's did, until this request is aborted.
 */
function replayedBody(
  recorded: RecordedResponse,
  number: number,
  wait: (ms: number) => Promise<void>,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      signal?.addEventListener("abort", () => controller.error(abortReason(signal)), { once: true });
    },
    async pull(controller) {
      const chunk = recorded.chunks[next++];
      if (chunk) {
        await wait(chunk.ms);
        controller.enqueue(decodeChunk(chunk));
        return;
      }
      const end = recorded.end;
      // A body the client cancelled stays open, with nothing more to read, until the abort above.
      if (end.kind === "cancelled" && signal) return;
      await wait(end.ms);
      if (end.kind === "complete") controller.close();
      else if (end.kind === "error") controller.error(rebuildError(end.error));
      else {
        const why = `the recording of reply ${number} stops before the reply ended (${end.kind})`;
        controller.error(new RecordingError("replay_failed", why));
      }
    },
  });
}

/** Statuses whose responses have no body by definition. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

async function replayExchange(
  exchange: RecordedExchange,
  number: number,
  start: number,
  options: ReplayOptions,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const wait = (ms: number) => waitUntil(start, ms, options.realTime ?? false, signal);
  if (exchange.cancelled) return untilAborted(signal, number);
  if (exchange.error) {
    await wait(exchange.error.ms);
    throw rebuildError(exchange.error.error);
  }
  const recorded = exchange.response;
  if (!recorded) {
    throw new RecordingError("replay_failed", `request ${number} was never answered while recording`);
  }
  await wait(recorded.ms);
  const body = NULL_BODY_STATUSES.has(recorded.status) ? null : replayedBody(recorded, number, wait, signal);
  return new Response(body, {
    status: recorded.status,
    statusText: recorded.statusText,
    headers: recorded.headers,
  });
}

/** Loads a recording for replay. Throws a `RecordingError` when the file is not a readable recording. */
export function loadReplay(file: string, options: ReplayOptions = {}): Replay {
  const { header, exchanges } = readRecording(file);
  const secrets = options.secrets ?? [];
  let requests = 0;
  let played = 0;
  let failure: string | undefined;

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const start = performance.now();
    const number = ++requests;
    const captured = await captureRequest(input, init);
    if (captured.signal?.aborted) throw abortReason(captured.signal);
    if (failure) return failureResponse(failure);
    const exchange = exchanges[number - 1];
    if (!exchange) {
      failure = `replay has no recorded exchange for request ${number}: the recording has ${exchanges.length}`;
      return failureResponse(failure);
    }
    const difference = requestDifference(recordRequest(captured, secrets), exchange.request);
    if (difference) {
      failure = `replay diverged at request ${number}: ${difference}`;
      return failureResponse(failure);
    }
    played++;
    return replayExchange(exchange, number, start, options, captured.signal);
  };

  function assertComplete(): void {
    if (failure) throw new RecordingError("replay_failed", failure);
    const next = exchanges[played];
    if (next) {
      throw new RecordingError(
        "replay_incomplete",
        `replay left ${exchanges.length - played} of ${exchanges.length} recorded exchanges unplayed, ` +
          `from request ${played + 1} (${next.request.method} ${next.request.path})`,
      );
    }
  }

  return {
    header,
    fetch,
    get unplayed() {
      return exchanges.length - played;
    },
    get failure() {
      return failure;
    },
    assertComplete,
  };
}

/**
 * The recording file's lines, declared as schemas, and the encoding of body chunks and errors
 * in them. See recording.ts for the file format and the API.
 */
import * as z from "zod/mini";
import { redactSecrets } from "./stream-error.js";
import type { WireFormat } from "./types.js";

export const RECORDING_VERSION = 1;

const WIRE_FORMATS = [
  "anthropic-messages",
  "openai-chat",
  "openai-responses",
  "gemini",
  "bedrock-converse",
] as const satisfies readonly WireFormat[];

/** The first line of a recording. */
export const recordingHeaderSchema = z.object({
  type: z.literal("header"),
  version: z.number(),
  createdAt: z.string(),
  provider: z.string(),
  wireFormat: z.enum(WIRE_FORMATS),
  model: z.string(),
  /** The path of the base URL (e.g. `/v1`), so a replay sends requests to the same paths. */
  basePath: z.optional(z.string()),
});
export type RecordingHeader = z.infer<typeof recordingHeaderSchema>;
/** What the caller says about the run being recorded. */
export type RecordingMeta = Pick<RecordingHeader, "provider" | "wireFormat" | "model" | "basePath">;

/** A request as recorded: the body is parsed JSON when it is JSON, else text or base64 bytes. */
const recordedRequestSchema = z.object({
  method: z.string(),
  /** Path and query, without scheme and host. */
  path: z.string(),
  headers: z.record(z.string(), z.string()),
  json: z.optional(z.unknown()),
  text: z.optional(z.string()),
  base64: z.optional(z.string()),
});
export type RecordedRequest = z.infer<typeof recordedRequestSchema>;

/** An error as thrown by fetch or a body stream, then its causes: outermost first. */
const recordedErrorSchema = z.array(
  z.object({ name: z.string(), message: z.string(), code: z.optional(z.string()) }),
);
export type RecordedError = z.infer<typeof recordedErrorSchema>;

/** One piece of a response body exactly as it arrived; `ms` is its offset from the request. */
const recordedChunkSchema = z.union([
  z.object({ ms: z.number(), text: z.string() }),
  z.object({ ms: z.number(), base64: z.string() }),
]);
export type RecordedChunk = z.infer<typeof recordedChunkSchema>;

/**
 * How a response body ended: completely, with an error (a dropped connection), cut off by the
 * client (`cancelled`), or still open when the recorder closed (`unfinished`).
 */
const recordedEndSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("complete"), ms: z.number() }),
  z.object({ kind: z.literal("error"), ms: z.number(), error: recordedErrorSchema }),
  z.object({ kind: z.literal("cancelled"), ms: z.number() }),
  z.object({ kind: z.literal("unfinished"), ms: z.number() }),
]);
export type RecordedEnd = z.infer<typeof recordedEndSchema>;

const recordedResponseSchema = z.object({
  /** When the status and headers arrived, from the request. */
  ms: z.number(),
  status: z.number(),
  statusText: z.string(),
  headers: z.record(z.string(), z.string()),
  chunks: z.array(recordedChunkSchema),
  end: recordedEndSchema,
});
export type RecordedResponse = z.infer<typeof recordedResponseSchema>;

/**
 * One request and what came of it: a response, the error fetch rejected with, `cancelled` when
 * the client aborted it before the headers came, or none of these when the recorder closed first.
 */
export const recordedExchangeSchema = z.object({
  type: z.literal("exchange"),
  /** 0-based position of the request among the run's requests. */
  index: z.number(),
  request: recordedRequestSchema,
  response: z.optional(recordedResponseSchema),
  error: z.optional(z.object({ ms: z.number(), error: recordedErrorSchema })),
  cancelled: z.optional(z.object({ ms: z.number() })),
});
export type RecordedExchange = z.infer<typeof recordedExchangeSchema>;

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of bytes that are valid UTF-8, decoding back to the same bytes; else undefined. */
export function utf8OrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Textual bodies (SSE, JSON) are kept as text; anything else, e.g. AWS event streams, as base64. */
export function isTextualContentType(contentType: string | null): boolean {
  return contentType !== null && /^text\/|json|event-stream/i.test(contentType);
}

/**
 * A body chunk for the file. Text only when the chunk is valid UTF-8 by itself, so decoding it
 * back gives the same bytes; a secret in it is blanked (binary chunks keep their length and
 * framing, so a secret there is masked with asterisks of the same length).
 */
export function encodeChunk(bytes: Uint8Array, ms: number, textual: boolean, secrets: readonly string[]) {
  const text = textual ? utf8OrUndefined(bytes) : undefined;
  if (text !== undefined) return { ms, text: redactSecrets(text, secrets) };
  let latin1 = Buffer.from(bytes).toString("latin1");
  for (const secret of secrets) {
    if (secret.length >= 4) latin1 = latin1.split(secret).join("*".repeat(secret.length));
  }
  return { ms, base64: Buffer.from(latin1, "latin1").toString("base64") };
}

export function decodeChunk(chunk: RecordedChunk): Uint8Array {
  if ("text" in chunk) return new TextEncoder().encode(chunk.text);
  return new Uint8Array(Buffer.from(chunk.base64, "base64"));
}

function stringField(value: unknown, key: string): string | undefined {
  const field =
    typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === "string" ? field : undefined;
}

/** An error and up to three of its causes, secrets blanked. */
export function recordError(error: unknown, secrets: readonly string[]): RecordedError {
  const chain: RecordedError = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 4) {
    const code = stringField(current, "code");
    chain.push({
      name: stringField(current, "name") ?? "Error",
      message: redactSecrets(stringField(current, "message") ?? String(current), secrets),
      ...(code ? { code } : {}),
    });
    current = typeof current === "object" ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

/** Rebuilds a recorded error with the same names, messages, codes and causes. */
export function rebuildError(chain: RecordedError): Error {
  let rebuilt: Error | undefined;
  for (const link of [...chain].reverse()) {
    const options = rebuilt ? { cause: rebuilt } : undefined;
    const error =
      link.name === "TypeError" ? new TypeError(link.message, options) : new Error(link.message, options);
    error.name = link.name;
    if (link.code) Object.assign(error, { code: link.code });
    rebuilt = error;
  }
  return rebuilt ?? new Error("unknown error");
}

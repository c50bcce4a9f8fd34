import type { LlmEvent } from "./types.js";

export type LlmErrorEvent = Extract<LlmEvent, { type: "error" }>;

/** Error types a provider reports inside a stream that a later attempt can get past. */
const RETRYABLE_ERROR_TYPES = new Set([
  "api_error",
  "overloaded_error",
  "rate_limit_error",
  "timeout_error",
  "server_error",
  "rate_limit_exceeded",
]);

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function asString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** HTTP status codes worth retrying: timeouts, conflicts, rate limits and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `retry-after-ms` or `retry-after` (seconds or an HTTP date) from an SDK error's headers. */
export function retryAfterMsOf(error: unknown, now = Date.now()): number | undefined {
  const headers = field(error, "headers");
  const get = (name: string): string | undefined => {
    if (headers && typeof (headers as Headers).get === "function") {
      return (headers as Headers).get(name) ?? undefined;
    }
    return asString(field(headers, name));
  };
  const ms = Number(get("retry-after-ms"));
  if (Number.isFinite(ms) && ms >= 0 && get("retry-after-ms") !== undefined) return ms;
  const after = get("retry-after");
  if (after === undefined) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const CONTEXT_OVERFLOW =
  /prompt is too long|context[ _-]length|context window|maximum context|input is too long|too many (input )?tokens|exceeds? the (maximum|context|token)|token limit|input token count/i;

/** What kind of failure a status and message describe, where the agent treats it specially. */
export function errorKindOf(status: number | undefined, text: string): LlmErrorEvent["kind"] {
  if (status === 401 || status === 403) return "auth";
  if ((status === undefined || status === 400 || status === 413) && CONTEXT_OVERFLOW.test(text)) {
    return "context_overflow";
  }
  return undefined;
}

/** The provider's own wording: Anthropic bodies nest it under `error`, OpenAI SDKs unwrap one level. */
function providerMessage(error: unknown): string | undefined {
  const body = field(error, "error");
  return asString(field(field(body, "error"), "message")) ?? asString(field(body, "message"));
}

function providerErrorType(error: unknown): string | undefined {
  const body = field(error, "error");
  return asString(field(field(body, "error"), "type")) ?? asString(field(body, "type"));
}

/** The message of an error and of its causes, e.g. `terminated: other side closed`. */
function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const message = (current instanceof Error ? current.message : String(current)).replace(/\.$/, "");
    if (message && !parts.includes(message)) parts.push(message);
    current = field(current, "cause");
  }
  return parts.join(": ") || "unknown error";
}

/** Replaces every occurrence of each secret (an API key) in the text. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join("[redacted]");
  }
  return result;
}

/**
 * Turns anything an SDK threw into the error event that ends a stream. Works on the shape of
 * the error (status, body, cause) so it stays independent of any one SDK. Never throws.
 */
export function toErrorEvent(error: unknown, provider: string, secrets: readonly string[]): LlmErrorEvent {
  const status = field(error, "status");
  if (typeof status === "number") {
    const detail = providerMessage(error) ?? causeChain(error);
    const code = asString(field(field(error, "error"), "code")) ?? "";
    const kind = errorKindOf(status, `${detail} ${code}`);
    const retryAfterMs = retryAfterMsOf(error);
    return {
      type: "error",
      message: redactSecrets(`${provider} request failed with HTTP ${status}: ${detail}`, secrets),
      retryable: isRetryableStatus(status) && kind === undefined,
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(kind ? { kind } : {}),
    };
  }
  const errorType = providerErrorType(error);
  if (errorType) {
    const detail = providerMessage(error) ?? causeChain(error);
    return {
      type: "error",
      message: redactSecrets(
        `${provider} reported an error in the stream (${errorType}): ${detail}`,
        secrets,
      ),
      retryable: RETRYABLE_ERROR_TYPES.has(errorType),
    };
  }
  if (error instanceof SyntaxError) {
    return {
      type: "error",
      message: redactSecrets(`${provider} sent a malformed stream: ${error.message}`, secrets),
      retryable: true,
    };
  }
  return {
    type: "error",
    message: redactSecrets(`${provider} connection failed: ${causeChain(error)}`, secrets),
    retryable: true,
  };
}

/** The error event for a stream that stopped before the provider said it was complete. */
export function truncatedStreamEvent(provider: string): LlmErrorEvent {
  return {
    type: "error",
    message: `${provider} stream ended before the reply was complete`,
    retryable: true,
  };
}

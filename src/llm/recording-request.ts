/**
 * What a recording line says of a live request and response: the request as a fetch call made
 * it, and the rules that keep credentials out of the file. Shared by recorder and replayer, so a
 * replayed request is compared in the form the recorded one was written.
 */
import { type RecordedRequest, utf8OrUndefined } from "./recording-format.js";
import { redactSecrets } from "./stream-error.js";

export type FetchInput = Parameters<typeof globalThis.fetch>[0];

/** A fetch call's request, read without disturbing it: `forward` are the arguments to pass on. */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: Uint8Array | undefined;
  signal: AbortSignal | undefined;
  forward: [FetchInput, RequestInit | undefined];
}

/** Body kinds that can be sent again after being read; streams and async iterables cannot. */
function isRereadable(body: unknown): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === "string" ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof URLSearchParams ||
    body instanceof Blob
  );
}

async function bodyBytes(body: unknown): Promise<Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return new TextEncoder().encode(body);
  return new Uint8Array(await new Response(body as ConstructorParameters<typeof Response>[0]).arrayBuffer());
}

/** Reads what a fetch call sends; SDKs pass (url, init) or, like the AWS SDK, a Request. */
export async function captureRequest(
  input: FetchInput,
  init: RequestInit | undefined,
): Promise<CapturedRequest> {
  if (input instanceof Request) {
    const request = init ? new Request(input, init) : input;
    const body = request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
    return {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      signal: request.signal,
      forward: [request, undefined],
    };
  }
  const body = await bodyBytes(init?.body);
  return {
    method: (init?.method ?? "GET").toUpperCase(),
    url: String(input),
    headers: new Headers(init?.headers),
    body,
    signal: init?.signal ?? undefined,
    forward: [input, isRereadable(init?.body) ? init : { ...init, body: body as RequestInit["body"] }],
  };
}

/** Header and query names that carry credentials: API keys, bearer tokens, cookies, AWS signatures. */
const SECRET_NAME = /key|token|secret|auth|cookie|signature|credential|password/i;

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The path and query of a URL with credential parameters and secret values blanked. */
function scrubbedPath(url: string, secrets: readonly string[]): string {
  const { pathname, search } = new URL(url);
  // Parameter by parameter on the raw text, so the rest of the query stays byte for byte.
  const query = search
    .slice(1)
    .split("&")
    .map((parameter) => {
      const name = parameter.split("=")[0] ?? "";
      return isSecretName(name) ? `${name}=[redacted]` : parameter;
    })
    .join("&");
  return redactSecrets(search ? `${pathname}?${query}` : pathname, secrets);
}

/** Request headers minus every credential, with secret values blanked in the rest. */
function scrubbedRequestHeaders(headers: Headers, secrets: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (!isSecretName(name)) kept[name] = redactSecrets(value, secrets);
  }
  return kept;
}

/** Response headers worth replaying: what SDKs read to parse, retry and report. */
const KEPT_RESPONSE_HEADERS = new Set([
  "content-type",
  "retry-after",
  "retry-after-ms",
  "x-should-retry",
  "request-id",
  "x-request-id",
  "x-amzn-requestid",
  "x-amzn-errortype",
]);
const KEPT_RESPONSE_HEADER_PREFIXES = ["x-ratelimit-", "anthropic-ratelimit-"];

export function keptResponseHeaders(headers: Headers, secrets: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) {
    const wanted =
      KEPT_RESPONSE_HEADERS.has(name) ||
      KEPT_RESPONSE_HEADER_PREFIXES.some((prefix) => name.startsWith(prefix));
    if (wanted) kept[name] = redactSecrets(value, secrets);
  }
  return kept;
}

/** The request as a recording line holds it, secrets removed. */
export function recordRequest(captured: CapturedRequest, secrets: readonly string[]): RecordedRequest {
  const request: RecordedRequest = {
    method: captured.method,
    path: scrubbedPath(captured.url, secrets),
    headers: scrubbedRequestHeaders(captured.headers, secrets),
  };
  if (!captured.body) return request;
  const text = utf8OrUndefined(captured.body);
  if (text === undefined) {
    request.base64 = Buffer.from(captured.body).toString("base64");
    return request;
  }
  const scrubbed = redactSecrets(text, secrets);
  try {
    request.json = JSON.parse(scrubbed);
  } catch {
    request.text = scrubbed;
  }
  return request;
}

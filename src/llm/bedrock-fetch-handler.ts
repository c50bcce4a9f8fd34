/**
 * An HTTP handler for the AWS SDK built on fetch, so Bedrock requests can go through
 * `ModelConfig.fetch` (record and replay) and reach HTTP/1.1 servers.
 */

/** The parts of the SDK's signed HTTP request that a handler sends. */
export interface SignedRequest {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | Array<string | null> | null>;
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** RFC 3986 encoding, as SigV4 signs query parameters. */
function escapeUri(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function requestUrl(request: SignedRequest): string {
  const port = request.port ? `:${request.port}` : "";
  const pairs = Object.entries(request.query ?? {}).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value])
      .filter((item): item is string => item != null)
      .map((item) => `${escapeUri(key)}=${escapeUri(item)}`),
  );
  const search = pairs.length > 0 ? `?${pairs.join("&")}` : "";
  return `${request.protocol}//${request.hostname}${port}${request.path}${search}`;
}

/**
 * Aborts when the caller aborts, or when no response has arrived within the timeout. The caller's
 * signal goes to fetch as it is (or combined, which holds it weakly) so that a signal shared by
 * many requests collects no listeners.
 */
function attemptSignal(caller: AbortSignal | undefined, timeoutMs: number | undefined) {
  if (timeoutMs === undefined) return { signal: caller, responded: () => {} };
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    const error = new Error(`no response within ${timeoutMs} ms`);
    error.name = "TimeoutError";
    timeout.abort(error);
  }, timeoutMs);
  const signal = caller ? AbortSignal.any([caller, timeout.signal]) : timeout.signal;
  return { signal, responded: () => clearTimeout(timer) };
}

/**
 * Sends the SDK's signed requests through fetch: `config.fetch` when set (record and replay wrap
 * it), else Node's fetch. The SDK's own Node handler for Bedrock speaks only HTTP/2, which
 * proxies, gateways and local servers often do not. The reply body stays a stream, which the
 * SDK's event-stream decoder reads as it arrives.
 */
export function fetchRequestHandler(fetchFn: typeof fetch, timeoutMs: number | undefined) {
  return {
    async handle(request: SignedRequest, options?: { abortSignal?: unknown }) {
      const attempt = attemptSignal(options?.abortSignal as AbortSignal | undefined, timeoutMs);
      try {
        const response = await fetchFn(requestUrl(request), {
          method: request.method,
          headers: request.headers,
          body:
            request.method === "GET" || request.method === "HEAD"
              ? undefined
              : (request.body as RequestInit["body"]),
          signal: attempt.signal,
        });
        return {
          response: {
            statusCode: response.status,
            reason: response.statusText,
            headers: Object.fromEntries(response.headers),
            body: response.body ?? new Uint8Array(),
          },
        };
      } finally {
        attempt.responded();
      }
    },
    updateHttpClientConfig: () => {},
    httpHandlerConfigs: () => ({}),
  };
}

/** A fetched text document, or why there is none. Produced by `fetchText`, which never throws. */
export type FetchTextResult =
  | {
      ok: true;
      finalUrl: string;
      status: number;
      contentType: string;
      text: string;
      bytes: number;
      /** True when the body was cut at `maxBytes`. */
      truncated: boolean;
    }
  | { ok: false; finalUrl: string; status?: number; contentType?: string; message: string; body?: string };

export interface FetchTextOptions {
  fetchImpl: typeof fetch;
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

const TEXT_TYPES =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|xhtml\+xml|javascript|ecmascript|x-ndjson)\b)/i;

/** http:// becomes https:// except for loopback hosts; anything but http(s) is an error. */
export function normalizeUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw}" is not a valid URL.`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `Only http and https URLs can be fetched, not ${url.protocol}`;
  if (url.protocol === "http:" && !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname))
    url.protocol = "https:";
  return url;
}

/**
 * GETs `url`, following up to `maxRedirects` redirects (each target normalized like the first),
 * and reads at most `maxBytes` of a textual body. The timeout covers the whole exchange.
 */
export async function fetchText(start: URL, options: FetchTextOptions): Promise<FetchTextResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("timeout")), options.timeoutMs);
  const onAbort = () => controller.abort(new Error("aborted"));
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  let url = start;
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await options.fetchImpl(url, {
        redirect: "manual",
        signal: controller.signal,
        headers: { accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.1" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (redirects >= options.maxRedirects) {
          return {
            ok: false,
            finalUrl: url.href,
            status: response.status,
            message: `Too many redirects (more than ${options.maxRedirects}).`,
          };
        }
        const next = normalizeUrl(new URL(location, url).href);
        if (typeof next === "string")
          return { ok: false, finalUrl: url.href, message: `Redirected to an unusable URL: ${next}` };
        url = next;
        continue;
      }
      return await readBody(response, url.href, options.maxBytes);
    }
  } catch (error) {
    const reason = controller.signal.reason instanceof Error ? controller.signal.reason.message : "";
    if (reason === "timeout")
      return {
        ok: false,
        finalUrl: url.href,
        message: `The request timed out after ${options.timeoutMs / 1000}s.`,
      };
    if (reason === "aborted") return { ok: false, finalUrl: url.href, message: "The request was aborted." };
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return {
      ok: false,
      finalUrl: url.href,
      message: `The request failed: ${(error as Error).message}${cause ? ` (${cause})` : ""}`,
    };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
  }
}

async function readBody(response: Response, finalUrl: string, maxBytes: number): Promise<FetchTextResult> {
  const contentType = response.headers.get("content-type") ?? "";
  const status = response.status;
  if (contentType !== "" && !TEXT_TYPES.test(contentType)) {
    await response.body?.cancel();
    return {
      ok: false,
      finalUrl,
      status,
      contentType,
      message: `The content is not text (${contentType.split(";")[0]}); only text, HTML, JSON and XML can be fetched.`,
    };
  }
  const { bytes, truncated } = await readAtMost(response, maxBytes);
  const text = decode(bytes, contentType);
  if (contentType === "" && text.includes("\u0000")) {
    return {
      ok: false,
      finalUrl,
      status,
      message: "The content is not text (it has no content type and contains binary data).",
    };
  }
  if (!response.ok) {
    const statusText = response.statusText ? ` ${response.statusText}` : "";
    return {
      ok: false,
      finalUrl,
      status,
      contentType,
      message: `The server answered HTTP ${status}${statusText}.`,
      body: text,
    };
  }
  return { ok: true, finalUrl, status, contentType, text, bytes: bytes.length, truncated };
}

async function readAtMost(
  response: Response,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    chunks.push(value.length <= room ? value : value.subarray(0, room));
    size += Math.min(value.length, room);
    if (size >= maxBytes) {
      // A body of exactly maxBytes counts as cut: waiting to learn otherwise could wait forever.
      truncated = true;
      break;
    }
  }
  // Releases the connection; a stream that already failed has nothing left to release.
  await reader?.cancel().catch(() => undefined);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, truncated };
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset="?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

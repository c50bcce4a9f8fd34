import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { fetchText, normalizeUrl } from "../web/fetch-text.js";
import { htmlToMarkdown } from "../web/html-to-markdown.js";

const DESCRIPTION =
  "Fetch a web page or text document by URL and return its content as text; HTML is converted to Markdown without scripts, styles and navigation. http is upgraded to https (except for localhost). Only text, HTML, JSON and XML are returned; images, PDFs and other binary content are refused. Long content is cut with a note.";

const schema = z.object({
  url: z.string().check(z.minLength(1), z.describe("The full URL to fetch, e.g. https://example.com/docs.")),
  prompt: z.optional(z.string().check(z.describe("What you are looking for in the page."))),
});

export type WebFetchInput = z.infer<typeof schema>;

export interface WebFetchDetails {
  url: string;
  /** After redirects; the URL asked for when the request failed before any response. */
  finalUrl: string;
  status?: number;
  contentType?: string;
  /** Bytes of body read. */
  bytes: number;
  /** True when the body was cut at maxBytes or the text at maxChars. */
  truncated: boolean;
}

/** Declared here so tests and hosts can swap the network; default `globalThis.fetch`. */
export interface WebFetchOptions {
  fetchImpl?: typeof fetch;
  /** Bytes of body read at most. Default 2_000_000. */
  maxBytes?: number;
  /** Characters returned at most. Default 50_000. */
  maxChars?: number;
  /** Whole-request timeout. Default 20_000 ms. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
}

export function createWebFetchTool(
  options: WebFetchOptions = {},
): ToolHandler<WebFetchInput, WebFetchDetails> {
  const maxBytes = options.maxBytes ?? 2_000_000;
  const maxChars = options.maxChars ?? 50_000;
  return {
    name: "web_fetch",
    description: DESCRIPTION,
    inputSchema: schema,
    mutates: false,
    category: "browser",
    summarize: (input) => `web_fetch ${input.url}`,
    async execute(input, ctx) {
      const url = normalizeUrl(input.url.trim());
      if (typeof url === "string") {
        return {
          content: url,
          details: { url: input.url, finalUrl: input.url, bytes: 0, truncated: false },
          isError: true,
        };
      }
      const fetched = await fetchText(url, {
        fetchImpl: options.fetchImpl ?? fetch,
        signal: ctx.signal,
        timeoutMs: options.timeoutMs ?? 20_000,
        maxBytes,
        maxRedirects: options.maxRedirects ?? 5,
      });
      const header = [`URL: ${fetched.finalUrl}`];
      if (input.prompt) header.push(`Looking for: ${input.prompt}`);
      if (!fetched.ok) {
        const body = fetched.body?.trim() ? `\n\nResponse body:\n${fetched.body.trim().slice(0, 2000)}` : "";
        const details: WebFetchDetails = {
          url: input.url,
          finalUrl: fetched.finalUrl,
          bytes: 0,
          truncated: false,
          ...(fetched.status === undefined ? {} : { status: fetched.status }),
          ...(fetched.contentType === undefined ? {} : { contentType: fetched.contentType }),
        };
        return { content: `${header.join("\n")}\n${fetched.message}${body}`, details, isError: true };
      }
      const isHtml = /^(text\/html|application\/xhtml\+xml)/i.test(fetched.contentType);
      const text = isHtml ? await htmlToMarkdown(fetched.text) : fetched.text;
      const cut = text.length > maxChars;
      const notes: string[] = [];
      if (fetched.truncated)
        notes.push(`[The response was longer than ${maxBytes} bytes; only the first ${maxBytes} were read.]`);
      if (cut) notes.push(`[Content cut at ${maxChars} of ${text.length} characters.]`);
      header.push(`Content-Type: ${fetched.contentType || "(none)"}`);
      const content = [header.join("\n"), "", cut ? text.slice(0, maxChars) : text, ...notes].join("\n");
      const details: WebFetchDetails = {
        url: input.url,
        finalUrl: fetched.finalUrl,
        status: fetched.status,
        contentType: fetched.contentType,
        bytes: fetched.bytes,
        truncated: fetched.truncated || cut,
      };
      return { content, details };
    },
  };
}

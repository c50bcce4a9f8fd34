import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebFetchTool, type WebFetchOptions } from "../../src/coding/tools/web-fetch.js";
import { normalizeUrl } from "../../src/coding/web/fetch-text.js";
import { textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

const PAGE = `<!doctype html><html><head><title>T</title><style>body{color:red}</style></head><body>
<nav><a href="/">Home</a> <a href="/x">Nav link</a></nav>
<script>alert("hidden")</script>
<h1>Install</h1><p>Run <code>npm i bowline</code> then <a href="/docs">read the docs</a>.</p>
<ul><li>one</li><li>two</li></ul></body></html>`;

const routes: Record<string, (res: http.ServerResponse) => void> = {
  "/page": (res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
  "/data.json": (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"a": [1, 2]}'),
  "/image.png": (res) => res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(100)),
  "/missing": (res) => res.writeHead(404, { "content-type": "text/plain" }).end("no such page"),
  "/moved": (res) => res.writeHead(301, { location: "/page" }).end(),
  "/loop": (res) => res.writeHead(302, { location: "/loop" }).end(),
  "/big": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("y".repeat(50_000)),
  "/endless": (res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => res.write("z".repeat(1000)), 5);
    res.on("close", () => clearInterval(timer));
  },
  "/stall": (res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("partial");
  },
};

describe("web_fetch", () => {
  let server: http.Server;
  let base: string;
  const fetchUrl = async (path: string, options: WebFetchOptions = {}, prompt?: string) => {
    const test = createTestToolContext();
    const input = prompt === undefined ? { url: `${base}${path}` } : { url: `${base}${path}`, prompt };
    return createWebFetchTool(options).execute(input, test.ctx);
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => (routes[req.url ?? ""] ?? routes["/missing"]!)(res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("converts HTML to Markdown without scripts, styles and navigation", async () => {
    const result = await fetchUrl("/page", {}, "install steps");
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe(
      `URL: ${base}/page\nLooking for: install steps\nContent-Type: text/html; charset=utf-8\n\n` +
        "# Install\n\nRun `npm i bowline` then [read the docs](/docs).\n\n-   one\n-   two",
    );
    expect(result.details).toMatchObject({ status: 200, truncated: false });
  });

  it("passes JSON through", async () => {
    const result = await fetchUrl("/data.json");
    expect(textOf(result.content)).toBe(
      `URL: ${base}/data.json\nContent-Type: application/json\n\n{"a": [1, 2]}`,
    );
  });

  it("refuses binary content", async () => {
    const result = await fetchUrl("/image.png");
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("The content is not text (image/png)");
  });

  it("reports HTTP errors with the start of the body", async () => {
    const result = await fetchUrl("/missing");
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toBe(
      `URL: ${base}/missing\nThe server answered HTTP 404 Not Found.\n\nResponse body:\nno such page`,
    );
    expect(result.details?.status).toBe(404);
  });

  it("follows redirects, up to a limit", async () => {
    const moved = await fetchUrl("/moved");
    expect(moved.details?.finalUrl).toBe(`${base}/page`);
    expect(textOf(moved.content)).toContain("# Install");
    const loop = await fetchUrl("/loop", { maxRedirects: 3 });
    expect(loop.isError).toBe(true);
    expect(textOf(loop.content)).toContain("Too many redirects (more than 3).");
  });

  it("caps bytes read and characters returned, with notes", async () => {
    const bytes = await fetchUrl("/big", { maxBytes: 10_000 });
    expect(textOf(bytes.content)).toContain(
      "[The response was longer than 10000 bytes; only the first 10000 were read.]",
    );
    expect(bytes.details).toMatchObject({ bytes: 10_000, truncated: true });
    const chars = await fetchUrl("/big", { maxChars: 1000 });
    expect(textOf(chars.content)).toMatch(/\ny{1000}\n\[Content cut at 1000 of 50000 characters\.\]$/);
  });

  it("stops reading a never-ending response at the byte cap, and a stalled one at the timeout", async () => {
    const endless = await fetchUrl("/endless", { maxBytes: 20_000, timeoutMs: 10_000 });
    expect(endless.details).toMatchObject({ bytes: 20_000, truncated: true });
    const started = Date.now();
    const stalled = await fetchUrl("/stall", { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(stalled.isError).toBe(true);
    expect(textOf(stalled.content)).toContain("The request timed out after 0.3s.");
  });

  it("stops when the task is aborted", async () => {
    const test = createTestToolContext();
    setTimeout(() => test.controller.abort(), 100);
    const result = await createWebFetchTool().execute({ url: `${base}/stall` }, test.ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("The request was aborted.");
  });

  it("upgrades http to https except for loopback hosts, and refuses other schemes", () => {
    expect(String(normalizeUrl("http://example.com/a"))).toBe("https://example.com/a");
    expect(String(normalizeUrl("http://localhost:3000/"))).toBe("http://localhost:3000/");
    expect(normalizeUrl("file:///etc/passwd")).toBe("Only http and https URLs can be fetched, not file:");
    expect(normalizeUrl("not a url")).toBe('"not a url" is not a valid URL.');
  });

  it("is a read-only browser tool", () => {
    const tool = createWebFetchTool();
    expect(tool.mutates).toBe(false);
    expect(tool.category).toBe("browser");
  });
});

import type { Readable } from "node:stream";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpTransportConfig } from "./config.js";

export interface OpenedTransport {
  transport: Transport;
  /** The last lines a local server wrote to stderr, for error messages. */
  stderrTail(): string;
}

const STDERR_LINES = 12;

/**
 * The SDK transport for a server. A local server runs in `cwd` unless its config names one;
 * its stderr is kept (last lines) instead of written over the terminal. Remote servers get
 * their configured headers on every request, the SSE stream included, and `authProvider`'s
 * OAuth tokens when the server asks for authorization.
 */
export function openTransport(
  config: McpTransportConfig,
  cwd: string,
  authProvider?: OAuthClientProvider,
): OpenedTransport {
  if (config.type === "stdio") {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd ?? cwd,
      stderr: "pipe",
    });
    return { transport, stderrTail: keepTail(transport.stderr as Readable | null) };
  }
  const url = new URL(config.url);
  const options = { requestInit: { headers: config.headers }, ...(authProvider ? { authProvider } : {}) };
  const transport =
    config.type === "sse"
      ? new SSEClientTransport(url, options)
      : new StreamableHTTPClientTransport(url, options);
  return { transport, stderrTail: () => "" };
}

function keepTail(stream: Readable | null): () => string {
  let lines: string[] = [];
  let partial = "";
  stream?.on("data", (chunk: Buffer) => {
    const parts = (partial + chunk.toString("utf8")).split("\n");
    partial = parts.pop() ?? "";
    lines = [...lines, ...parts.filter((line) => line.trim() !== "")].slice(-STDERR_LINES);
  });
  return () => [...lines, ...(partial.trim() ? [partial] : [])].slice(-STDERR_LINES).join("\n");
}

/** A remote transport's failure (network error, HTTP error): the connection is gone, not the tool. */
export function isTransportFailure(error: unknown): boolean {
  if (error instanceof StreamableHTTPError || error instanceof SseError) return true;
  if (!(error instanceof Error)) return false;
  return (
    error.message === "fetch failed" ||
    error.message === "Not connected" ||
    /ECONNREFUSED|ECONNRESET|socket hang up/.test(error.message)
  );
}

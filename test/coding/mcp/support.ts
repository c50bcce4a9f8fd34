/** Real MCP servers for tests: the project's own test server (stdio, HTTP, SSE) and server-everything. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { McpServerEntry } from "../../../src/coding/mcp/config.js";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
export const TEST_SERVER = join(ROOT, "test", "support", "mcp-test-server.ts");
/** tsx by absolute URL: servers run in temporary directories where `tsx` would not resolve. */
export const TSX = import.meta.resolve("tsx");
export const EVERYTHING = join(ROOT, "node_modules", ".bin", "mcp-server-everything");

/** An mcpServers entry that runs the test server over stdio. */
export function testServerEntry(args: string[] = [], extra: McpServerEntry = {}): McpServerEntry {
  return { command: process.execPath, args: ["--import", TSX, TEST_SERVER, "stdio", ...args], ...extra };
}

export interface RemoteServer {
  url: string;
  process: ChildProcess;
  stop(): void;
}

/**
 * The test server over streamable HTTP, SSE, or streamable HTTP behind OAuth (`oauth`) on a free
 * port; resolves once it listens.
 */
export function startRemoteTestServer(
  mode: "http" | "sse" | "oauth",
  args: string[] = [],
): Promise<RemoteServer> {
  const child = spawn(process.execPath, ["--import", TSX, TEST_SERVER, mode, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolvePromise, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /listening (\S+)/.exec(output);
      if (match) resolvePromise({ url: match[1]!, process: child, stop: () => child.kill("SIGKILL") });
    });
    child.on("exit", (code) => reject(new Error(`test server exited with ${code} before listening`)));
  });
}

export interface Sandbox {
  home: string;
  workspace: string;
  writeUser(servers: Record<string, unknown>, extra?: Record<string, unknown>): void;
  writeProject(servers: Record<string, unknown>): void;
  remove(): void;
}

export function createSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "bowline-mcp-"));
  const home = join(root, "home");
  const workspace = join(root, "ws");
  mkdirSync(join(workspace, ".bowline"), { recursive: true });
  mkdirSync(home, { recursive: true });
  return {
    home,
    workspace,
    writeUser: (servers, extra = {}) =>
      writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: servers, ...extra })),
    writeProject: (servers) =>
      writeFileSync(join(workspace, ".bowline", "mcp.json"), JSON.stringify({ mcpServers: servers })),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Polls `condition` until it holds or `timeoutMs` passes. */
export async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for a condition");
    await new Promise((r) => setTimeout(r, 20));
  }
}

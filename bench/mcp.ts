import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createNonInteractivePolicy } from "../src/coding/approval-rules.js";
import { createTaskSession } from "../src/coding/controller.js";
import type { McpHub, McpServerInfo } from "../src/coding/mcp/hub.js";
import { openMcpHub, type RunningMcpHub } from "../src/coding/mcp/mcp-hub.js";
import { prepareToolOffer } from "../src/coding/tool-offer.js";
import { createCodingTools } from "../src/coding/tools/index.js";
import { createWorkspace } from "../src/coding/workspace.js";
import { createModelClient } from "../src/llm/create-client.js";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { catalogTools } from "../test/support/mcp-tool-catalog.js";
import { median, now, ROOT, round } from "./support.js";

/**
 * MCP costs. Start-up: five configured servers (four of the project's test server, one that
 * never answers), time from opening the hub to the first model request of a task, beside the
 * same task without MCP; and when the four good servers have joined. Size: the native tool
 * definitions a request carries with 100 and 150 MCP tools, schemas lazy vs full (o200k).
 */
export const mcpTargets = { firstRequestOverheadMs: 300, lazyToolSectionTokens: 3000 };

const SERVER = join(ROOT, "test", "support", "mcp-test-server.ts");
const TSX = import.meta.resolve("tsx");

export async function benchMcp(runs = 3) {
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-mcp-"));
  const home = join(root, "home");
  const workspace = join(root, "ws");
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const entry = (args: string[]) => ({
    command: process.execPath,
    args: ["--import", TSX, SERVER, "stdio", ...args],
  });
  const servers = Object.fromEntries([
    ...[0, 1, 2, 3].map((i) => [`good${i}`, entry(["--tools", "10", "--offset", String(i * 10)])]),
    ["hung", entry(["--hang"])],
  ]);
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: servers }));

  const withMcp: number[] = [];
  const deferred: number[] = [];
  const without: number[] = [];
  const joined: number[] = [];
  const hungAtFirstRequest: string[] = [];
  await firstRequest(root, workspace); // loads the SDKs once, for neither side to pay
  for (let i = 0; i < runs; i++) {
    without.push((await firstRequest(root, workspace)).ms);
    for (const defer of [false, true]) {
      const started = now();
      const hub = openMcpHub({ home, workspaceRoot: workspace, env: process.env, start: !defer });
      const run = await firstRequest(root, workspace, hub, started, defer);
      (defer ? deferred : withMcp).push(run.ms);
      hungAtFirstRequest.push(run.hungStatus ?? "?");
      await waitUntil(() => hub.listServers().filter((s) => s.status === "connected").length === 4);
      if (!defer) joined.push(now() - started);
      await hub.close();
    }
  }
  const overhead = median(withMcp) - median(without);
  const sizes = [100, 150].map((count) => ({ tools: count, ...toolSectionTokens(count) }));
  const lazy150 = sizes[1]!;
  return {
    startup: {
      servers: 5,
      firstRequestMs: round(median(withMcp), 1),
      firstRequestWithoutMcpMs: round(median(without), 1),
      overheadMs: round(overhead, 1),
      /** Servers started once the first request is on its way (the host's choice). */
      firstRequestStartDeferredMs: round(median(deferred), 1),
      fourGoodServersJoinedMs: round(median(joined), 1),
      /** What one synchronous spawn of /bin/true blocks this process for: the floor of the overhead. */
      syncSpawnMs: round(await syncSpawnMs(), 1),
      hungServerAtFirstRequest: hungAtFirstRequest,
    },
    toolSection: sizes,
    targets: mcpTargets,
    met: {
      firstRequestOverhead: overhead < mcpTargets.firstRequestOverheadMs,
      lazyToolSection: lazy150.lazy.mcpTokens < mcpTargets.lazyToolSectionTokens,
    },
  };
}

/**
 * Milliseconds from `started` (default: now) to the first request of a one-turn task; with
 * `startOnFirstRequest`, the hub's servers start when the task announces that request.
 */
async function firstRequest(
  root: string,
  workspace: string,
  hub?: RunningMcpHub,
  started = now(),
  startOnFirstRequest = false,
) {
  const server = await startFakeModelServer({
    script: [{ toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] }],
  });
  let hungStatus: string | undefined;
  try {
    const model = await createModelClient({
      provider: "anthropic",
      wireFormat: "anthropic-messages",
      model: "bench",
      apiKey: "k",
      baseUrl: server.url,
      maxRetries: 0,
    });
    const session = await createTaskSession({
      cwd: workspace,
      modelConfig: model.config,
      model,
      home: join(root, "task-home"),
      policy: createNonInteractivePolicy({ yes: true, allow: [] }),
      interactive: false,
      emit: (event) => {
        const say =
          event.type === "ui_message_added" && event.message.type === "say" && event.message.payload.say;
        if (startOnFirstRequest && say === "api_request") hub?.start();
      },
      ...(hub ? { mcpHub: hub } : {}),
    });
    const run = session.run("hello");
    await server.waitForRequests(1, 30_000);
    hungStatus = hub?.listServers().find((s) => s.name === "hung")?.status;
    await run;
    await session.close();
    return { ms: server.requests[0]!.receivedAt - started, hungStatus };
  } finally {
    await server.close();
  }
}

/**
 * Tokens of the native tool definitions (MCP ones, and all with the built-in tools) with
 * `count` catalogue tools on three servers, lazy and not.
 */
function toolSectionTokens(count: number) {
  const tools = catalogTools(count);
  const third = Math.ceil(count / 3);
  const servers: McpServerInfo[] = ["github", "tracker", "ci"].map((name, i) => ({
    name,
    status: "connected",
    tools: tools.slice(i * third, (i + 1) * third),
  }));
  const measure = (lazySchemas: "on" | "off") => {
    const hub: McpHub = {
      lazySchemas,
      listServers: () => servers,
      callTool: async () => ({ content: [] }),
      readResource: async () => [],
    };
    const prepared = prepareToolOffer({
      tools: createCodingTools({ workspace: createWorkspace(ROOT) }),
      wireFormat: "anthropic-messages",
      model: "claude-sonnet-4-5",
      workspaceRoot: ROOT,
      shell: "/bin/bash",
      mode: "act",
      mcpHub: hub,
    });
    if (prepared.offer.protocol !== "native") throw new Error("expected native tools");
    const definitions = prepared.offer.definitions();
    const mcp = definitions.filter((d) => d.name.includes("mcp"));
    return {
      definitions: definitions.length,
      mcpTokens: countTokens(JSON.stringify(mcp)),
      allToolsTokens: countTokens(JSON.stringify(definitions)),
    };
  };
  return { lazy: measure("on"), full: measure("off") };
}

async function syncSpawnMs(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const started = now();
    const child = spawn("/bin/true", [], { stdio: "pipe" });
    times.push(now() - started);
    await new Promise((resolve) => child.on("exit", resolve));
  }
  return median(times);
}

async function waitUntil(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("MCP servers did not connect in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchMcp(), null, 2)}\n`);
}

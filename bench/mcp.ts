import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createNonInteractivePolicy } from "../src/coding/approval-rules.js";
import { createTaskSession, type TaskSession } from "../src/coding/controller.js";
import type { McpHub, McpServerInfo } from "../src/coding/mcp/hub.js";
import { prepareToolOffer } from "../src/coding/tool-offer.js";
import { createCodingTools } from "../src/coding/tools/index.js";
import { createWorkspace } from "../src/coding/workspace.js";
import { createModelClient } from "../src/llm/create-client.js";
import type { Event } from "../src/protocol/index.js";
import type { RecordedRequest } from "../test/support/fake-model-script.js";
import { type ScriptedTurn, startFakeModelServer } from "../test/support/fake-model-server.js";
import { catalogTools } from "../test/support/mcp-tool-catalog.js";
import { CLI, median, now, ROOT, round, runProcess } from "./support.js";

/**
 * MCP costs. Start-up: five configured servers in `~/.bowline/mcp.json` (four of the project's
 * test server bundled to JavaScript, one that never answers), the time from start to the first model request beside
 * the same task without MCP servers, measured two ways in the same run: the real `bowline`
 * binary (process start, print mode; `BOWLINE_BENCH_CLI` names another build than dist/cli.js)
 * and `createTaskSession` in this process. The model takes seconds over its first reply, as
 * real ones do; the second request shows which servers joined by then. Size: the native tool
 * definitions a request carries with 100 and 150 MCP tools, schemas lazy vs full (o200k).
 */
export const mcpTargets = { firstRequestMs: 300, lazyToolSectionTokens: 3000 };

const SERVER = join(ROOT, "test", "support", "mcp-test-server.ts");
const GOOD_SERVERS = 4;

/**
 * The model's first reply streams for about three seconds (a short real reply), then lists
 * files; the second ends the task.
 */
const SCRIPT: ScriptedTurn[] = [
  {
    text: "Let me look around first. ".repeat(12),
    chunkDelayMs: 80,
    toolCalls: [{ name: "list_files", input: { path: "." } }],
  },
  { toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] },
];

export async function benchMcp(runs = 5) {
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-mcp-"));
  const workspace = join(root, "ws");
  const homes = { withMcp: join(root, "home-mcp"), without: join(root, "home-none") };
  for (const dir of [workspace, ...Object.values(homes)]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(workspace, "README.md"), "bench\n");
  // Bundled to plain JavaScript, as published servers are (tsx would compile it at every start).
  const serverJs = join(root, "mcp-test-server.mjs");
  await build({
    entryPoints: [SERVER],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: serverJs,
    // Its CommonJS dependencies require Node's modules.
    banner: {
      js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    },
  });
  const entry = (args: string[]) => ({ command: process.execPath, args: [serverJs, "stdio", ...args] });
  const servers = Object.fromEntries([
    ...[0, 1, 2, 3].map((i) => [`good${i}`, entry(["--tools", "10", "--offset", String(i * 10)])]),
    ["hung", entry(["--hang"])],
  ]);
  writeFileSync(join(homes.withMcp, "mcp.json"), JSON.stringify({ mcpServers: servers }));

  const cli = process.env.BOWLINE_BENCH_CLI ?? CLI;
  const binary = { withMcp: [] as Start[], without: [] as Start[] };
  const inProcess = { withMcp: [] as Start[], without: [] as Start[] };
  await sessionStart(homes.without, workspace); // loads the SDKs once, for neither side to pay
  for (let i = 0; i <= runs; i++) {
    // Run 0 of the binary fills its code cache (a first start after install); it is not counted.
    for (const side of ["without", "withMcp"] as const) {
      const run = await binaryStart(cli, homes[side], workspace);
      if (i === 0) continue;
      binary[side].push(run);
      inProcess[side].push(await sessionStart(homes[side], workspace));
    }
  }
  const sizes = [100, 150].map((count) => ({ tools: count, ...toolSectionTokens(count) }));
  const lazy150 = sizes[1]!;
  const binaryStartup = summarise(binary);
  return {
    startup: {
      servers: GOOD_SERVERS + 1,
      runs,
      /** `bowline -p`: process start to the first request at the model. */
      binary: binaryStartup,
      /** createTaskSession (SDKs loaded) to the first request at the model. */
      inProcess: summarise(inProcess),
      /** What one synchronous spawn of /bin/true blocks this process for. */
      syncSpawnMs: round(await syncSpawnMs(), 1),
    },
    toolSection: sizes,
    targets: mcpTargets,
    met: {
      firstRequest: binaryStartup.withMcp.firstRequestMs < mcpTargets.firstRequestMs,
      serversJoinSecondRequest: binaryStartup.withMcp.serversInSecondRequest === GOOD_SERVERS,
      lazyToolSection: lazy150.lazy.mcpTokens < mcpTargets.lazyToolSectionTokens,
    },
  };
}

interface Start {
  firstRequestMs: number;
  /** Good servers whose tools the second request offers. */
  serversInSecondRequest: number;
  /** In process: when the four good servers were connected (they start as the model answers). */
  serversConnectedMs?: number;
}

function summarise(sides: { withMcp: Start[]; without: Start[] }) {
  const side = (starts: Start[]) => {
    const connected = starts.flatMap((start) => start.serversConnectedMs ?? []);
    return {
      firstRequestMs: round(median(starts.map((start) => start.firstRequestMs)), 1),
      serversInSecondRequest: median(starts.map((start) => start.serversInSecondRequest)),
      ...(connected.length > 0 ? { serversConnectedMs: round(median(connected), 1) } : {}),
    };
  };
  const withMcp = side(sides.withMcp);
  const without = side(sides.without);
  return {
    withMcp,
    without,
    overheadMs: round(withMcp.firstRequestMs - without.firstRequestMs, 1),
  };
}

/** The good servers offered in a request: as native tools, or in use_mcp_tool's catalogue. */
function serversOffered(request: RecordedRequest | undefined): number {
  const text = JSON.stringify(request?.body.tools ?? []);
  return new Set([...text.matchAll(/good(\d)__mcp__|## good(\d)/g)].map((m) => m[1] ?? m[2])).size;
}

/** `bowline -p` with `home` as BOWLINE_HOME: process start to the first request. */
async function binaryStart(cli: string, home: string, workspace: string): Promise<Start> {
  const server = await startFakeModelServer({ script: SCRIPT });
  try {
    const run = await runProcess(
      process.execPath,
      [cli, "-p", "hello", "--provider", "anthropic", "--base-url", server.url, "--model", "bench"],
      {
        cwd: workspace,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          BOWLINE_HOME: home,
          ANTHROPIC_API_KEY: "bench-key",
          XDG_CACHE_HOME: join(home, "cache"),
        },
      },
    );
    if (run.code !== 0) throw new Error(`bowline -p failed (${run.code}): ${run.stderr}`);
    return {
      firstRequestMs: server.requests[0]!.receivedAt - run.startedAt,
      serversInSecondRequest: serversOffered(server.requests[1]),
    };
  } finally {
    await server.close();
  }
}

/** createTaskSession as the CLI calls it (the session opens the hub from `home`) to the first request. */
async function sessionStart(home: string, workspace: string): Promise<Start> {
  const server = await startFakeModelServer({ script: SCRIPT });
  try {
    const model = await createModelClient({
      provider: "anthropic",
      wireFormat: "anthropic-messages",
      model: "bench",
      apiKey: "k",
      baseUrl: server.url,
      maxRetries: 0,
    });
    let session: TaskSession | undefined;
    let polling: NodeJS.Timeout | undefined;
    let connectedAt: number | undefined;
    let failure: string | undefined;
    const emit = (event: Event) => {
      if (event.type === "mcp_servers") {
        const good = event.servers.filter((s) => s.name !== "hung");
        if (good.every((s) => s.status === "connected")) connectedAt ??= now();
        const failed = good.find((s) => s.status === "failed");
        if (failed) failure = `${failed.name}: ${failed.error}`;
      } else if (!polling && isReplyText(event)) {
        // The model is answering, so the servers have started: asking about them changes nothing.
        polling = setInterval(() => session?.dispatch({ type: "list_mcp_servers" }), 20);
      }
    };
    const started = now();
    session = await createTaskSession({
      cwd: workspace,
      modelConfig: model.config,
      model,
      home,
      policy: createNonInteractivePolicy({ yes: true, allow: [] }),
      interactive: false,
      emit,
    });
    const outcome = await session.run("hello");
    if (outcome.status !== "completed")
      throw new Error(`the task did not complete: ${JSON.stringify(outcome)}`);
    const configured = existsSync(join(home, "mcp.json"));
    const deadline = Date.now() + 60_000;
    while (configured && connectedAt === undefined && !failure && Date.now() < deadline) await sleep(20);
    clearInterval(polling);
    if (configured && connectedAt === undefined) throw new Error(`MCP servers did not connect: ${failure}`);
    await session.close();
    return {
      firstRequestMs: server.requests[0]!.receivedAt - started,
      serversInSecondRequest: serversOffered(server.requests[1]),
      ...(configured && connectedAt !== undefined ? { serversConnectedMs: connectedAt - started } : {}),
    };
  } finally {
    await server.close();
  }
}

function isReplyText(event: Event): boolean {
  return (
    event.type === "ui_message_added" && event.message.type === "say" && event.message.payload.say === "text"
  );
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchMcp(), null, 2)}\n`);
}

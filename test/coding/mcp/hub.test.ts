/**
 * The hub against real servers: the project's test server over stdio, streamable HTTP and SSE,
 * and the published server-everything. Calls, results with images and embedded resources,
 * resources and prompts, a crash and its restart, a hung call and a hung server, abort.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseServer } from "../../../src/coding/mcp/config.js";
import { McpServerError } from "../../../src/coding/mcp/errors.js";
import { createMcpHub, type McpHubOptions, type RunningMcpHub } from "../../../src/coding/mcp/mcp-hub.js";
import { PIXEL_PNG } from "../../support/mcp-test-server.js";
import { EVERYTHING, type RemoteServer, startRemoteTestServer, testServerEntry, waitFor } from "./support.js";

const hubs: RunningMcpHub[] = [];
const remotes: RemoteServer[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  for (const remote of remotes.splice(0)) remote.stop();
});

const signal = () => new AbortController().signal;

function hubOf(entries: Record<string, unknown>, options: Partial<McpHubOptions> = {}): RunningMcpHub {
  const servers = Object.entries(entries).map(([name, entry]) => {
    const parsed = parseServer(name, entry, "user", "test", process.env);
    if ("message" in parsed) throw new Error(parsed.message);
    return parsed;
  });
  const hub = createMcpHub({
    config: { servers, problems: [], lazySchemas: "auto" },
    cwd: process.cwd(),
    restart: { initialDelayMs: 50 },
    ...options,
  });
  hubs.push(hub);
  hub.start();
  return hub;
}

const server = (hub: RunningMcpHub, name: string) => hub.listServers().find((s) => s.name === name)!;

describe("MCP hub over stdio (the project's test server)", () => {
  it("lists tools, resources and prompts, and passes text, images and embedded resources through", async () => {
    const hub = hubOf({ test: testServerEntry() });
    await hub.whenSettled();
    const info = server(hub, "test");
    expect(info.status).toBe("connected");
    expect(info.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "sleep", "crash", "image"]),
    );
    expect(info.tools.find((t) => t.name === "echo")!.inputSchema).toMatchObject({ required: ["text"] });
    expect(info.resources!.map((r) => r.uri)).toEqual(["test://greeting", "test://pixel"]);
    expect(info.resourceTemplates).toEqual([
      { uriTemplate: "test://notes/{id}", name: "note", description: "A note by id." },
    ]);
    expect(info.prompts!.map((p) => p.name)).toEqual(["review"]);

    expect(await hub.callTool("test", "echo", { text: "hi" }, signal())).toEqual({
      content: [{ type: "text", text: "echo: hi" }],
    });
    expect((await hub.callTool("test", "image", {}, signal())).content).toEqual([
      { type: "text", text: "a pixel" },
      { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
    ]);
    expect((await hub.callTool("test", "embedded", {}, signal())).content).toEqual([
      { type: "resource", uri: "test://greeting", mimeType: "text/plain", text: "Hello!" },
    ]);
    expect(await hub.callTool("test", "fail", {}, signal())).toMatchObject({ isError: true });

    expect(await hub.readResource("test", "test://greeting", signal())).toEqual([
      {
        type: "resource",
        uri: "test://greeting",
        mimeType: "text/plain",
        text: "Hello from the test server.",
      },
    ]);
    expect(await hub.readResource("test", "test://pixel", signal())).toEqual([
      { type: "resource", uri: "test://pixel", mimeType: "image/png", blob: PIXEL_PNG },
    ]);
    expect((await hub.readResource("test", "test://notes/7", signal()))[0]).toMatchObject({
      text: "Note 7.",
    });
    const prompt = await hub.getPrompt("test", "review", { file: "a.ts" }, signal());
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "Please review a.ts." } },
    ]);
  });

  it("restarts a crashed server and tells the caller the call failed because of the crash", async () => {
    const hub = hubOf({ test: testServerEntry() });
    await hub.whenSettled();
    const before = (await hub.callTool("test", "pid", {}, signal())).content[0];
    const crash = hub.callTool("test", "crash", {}, signal());
    await expect(crash).rejects.toThrow(McpServerError);
    const error = (await crash.catch((e: unknown) => e)) as McpServerError;
    expect(error.reason).toBe("crashed");
    expect(error.message).toMatch(
      /The MCP server "test" exited .*crashing on purpose.* during the call of crash\. It is being restarted; the call did not complete/,
    );
    // A call while it restarts waits for it (within the call's timeout) and runs on the new process.
    const after = (await hub.callTool("test", "pid", {}, signal())).content[0];
    expect(server(hub, "test").status).toBe("connected");
    expect(after).not.toEqual(before);
  });

  it("gives up restarting after the allowed attempts", async () => {
    const hub = hubOf({ test: testServerEntry() }, { restart: { initialDelayMs: 20, maxAttempts: 0 } });
    await hub.whenSettled();
    await expect(hub.callTool("test", "crash", {}, signal())).rejects.toThrow(
      /exited .* It will not be restarted/,
    );
    expect(server(hub, "test")).toMatchObject({ status: "failed", error: expect.stringMatching(/gave up/) });
    await expect(hub.callTool("test", "echo", { text: "x" }, signal())).rejects.toThrow(/not available/);
  });

  it("abandons a call that outlives the server's timeout, and stays usable", async () => {
    const hub = hubOf({ test: testServerEntry([], { timeout: 1 }) });
    await hub.whenSettled();
    const started = Date.now();
    const error = (await hub
      .callTool("test", "sleep", { ms: 10_000 }, signal())
      .catch((e) => e)) as McpServerError;
    expect(error.reason).toBe("timeout");
    expect(error.message).toMatch(/did not answer the call of sleep within 1 s/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await hub.callTool("test", "echo", { text: "still here" }, signal())).content).toHaveLength(1);
  });

  it("cancels a call when the signal aborts", async () => {
    const hub = hubOf({ test: testServerEntry() });
    await hub.whenSettled();
    const abort = new AbortController();
    const call = hub.callTool("test", "sleep", { ms: 10_000 }, abort.signal);
    setTimeout(() => abort.abort(), 100);
    const started = Date.now();
    await expect(call).rejects.toMatchObject({ reason: "aborted" });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("never waits for a hung server: the others connect, it fails after the connect timeout", async () => {
    const started = Date.now();
    const hub = hubOf(
      {
        hung: { command: process.execPath, args: ["-e", "process.stdin.resume()"] },
        good: testServerEntry(),
      },
      { connectTimeoutMs: 6000 },
    );
    expect(Date.now() - started).toBeLessThan(50); // start() only schedules the spawns
    expect(hub.listServers().map((s) => s.status)).toEqual(["starting", "starting"]);
    await waitFor(() => server(hub, "good").status === "connected", 15_000);
    expect(server(hub, "hung").status).toBe("starting");
    expect((await hub.callTool("good", "echo", { text: "first" }, signal())).content).toHaveLength(1);
    await hub.whenSettled();
    expect(server(hub, "hung")).toMatchObject({ status: "failed", error: "did not answer within 6 s" });
  });

  it("reports a server whose command cannot start", async () => {
    const hub = hubOf({ broken: { command: "/nonexistent/mcp-server" } });
    await hub.whenSettled();
    expect(server(hub, "broken")).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/could not start: .*ENOENT/),
    });
    await expect(hub.callTool("broken", "x", {}, signal())).rejects.toThrow(
      /"broken" is not available: could not start/,
    );
  });

  it("announces changes: a connection, and a tool list the server changes", async () => {
    const hub = hubOf({ test: testServerEntry() });
    let changes = 0;
    hub.onChange!(() => changes++);
    await hub.whenSettled();
    expect(changes).toBeGreaterThan(0);
    const first = hub.listServers();
    expect(hub.listServers()).toBe(first); // one snapshot until something changes
    await hub.callTool("test", "add_tool", { name: "late_tool" }, signal());
    await waitFor(() => server(hub, "test").tools.some((t) => t.name === "late_tool"));
    expect(hub.listServers()).not.toBe(first);
  });
});

describe("MCP hub over remote transports", () => {
  it.each(["http", "sse"] as const)("connects and calls over %s", async (mode) => {
    const remote = await startRemoteTestServer(mode);
    remotes.push(remote);
    const hub = hubOf({ remote: { type: mode === "http" ? "streamableHttp" : "sse", url: remote.url } });
    await hub.whenSettled();
    expect(server(hub, "remote").status).toBe("connected");
    expect(await hub.callTool("remote", "echo", { text: mode }, signal())).toEqual({
      content: [{ type: "text", text: `echo: ${mode}` }],
    });
    expect((await hub.readResource("remote", "test://greeting", signal()))[0]).toMatchObject({
      text: "Hello from the test server.",
    });
  });

  it("tells the caller when a remote server goes away mid-call", async () => {
    const remote = await startRemoteTestServer("http");
    remotes.push(remote);
    const hub = hubOf({ remote: { type: "http", url: remote.url } }, { restart: { maxAttempts: 0 } });
    await hub.whenSettled();
    const error = (await hub.callTool("remote", "crash", {}, signal()).catch((e) => e)) as McpServerError;
    expect(error).toBeInstanceOf(McpServerError);
    expect(error.reason).toBe("crashed");
  });
});

describe("a published server (server-everything)", () => {
  it("connects over stdio, calls its echo tool and reads a resource", async () => {
    const hub = hubOf({ everything: { command: EVERYTHING, args: ["stdio"] } });
    await hub.whenSettled();
    const info = server(hub, "everything");
    expect(info.status).toBe("connected");
    expect(info.tools.length).toBeGreaterThan(5);
    const echo = await hub.callTool("everything", "echo", { message: "hello" }, signal());
    expect(JSON.stringify(echo.content)).toContain("hello");
    const resource = info.resources![0]!;
    const read = await hub.readResource("everything", resource.uri, signal());
    expect(read[0]).toMatchObject({ type: "resource", uri: resource.uri });
  });
});

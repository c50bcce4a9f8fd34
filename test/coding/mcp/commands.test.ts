/**
 * The MCP protocol commands against real servers: `list_mcp_servers` and `get_mcp_prompt`
 * answered from a hub of the project's test server (stdio and streamable HTTP) and
 * server-everything, every answer checked against the protocol's Event schema.
 */

import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { answerMcpCommand } from "../../../src/coding/mcp/commands.js";
import { parseServer } from "../../../src/coding/mcp/config.js";
import { createMcpHub, type RunningMcpHub } from "../../../src/coding/mcp/mcp-hub.js";
import { type Event, EventSchema } from "../../../src/protocol/index.js";
import type { McpCommand, McpEvent } from "../../../src/protocol/mcp-commands.js";
import { EVERYTHING, type RemoteServer, startRemoteTestServer, testServerEntry } from "./support.js";

const hubs: RunningMcpHub[] = [];
const remotes: RemoteServer[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  for (const remote of remotes.splice(0)) remote.stop();
});

function hubOf(entries: Record<string, unknown>): RunningMcpHub {
  const servers = Object.entries(entries).map(([name, entry]) => {
    const parsed = parseServer(name, entry, "user", "test", process.env);
    if ("message" in parsed) throw new Error(parsed.message);
    return parsed;
  });
  const hub = createMcpHub({ config: { servers, problems: [], lazySchemas: "auto" }, cwd: process.cwd() });
  hubs.push(hub);
  return hub;
}

/** The one event answering `command`, validated as a protocol Event. */
async function answer<T extends McpEvent["type"]>(
  hub: RunningMcpHub,
  command: McpCommand,
  type: T,
): Promise<Extract<Event, { type: T }>> {
  const events: McpEvent[] = [];
  await answerMcpCommand(hub, command, (event) => events.push(event));
  expect(events).toHaveLength(1);
  const event = z.parse(EventSchema, events[0]);
  expect(event.type).toBe(type);
  return event as Extract<Event, { type: T }>;
}

const getPrompt = (server: string, prompt: string, args?: Record<string, string>): McpCommand => ({
  type: "get_mcp_prompt",
  server,
  prompt,
  ...(args ? { arguments: args } : {}),
});

describe("list_mcp_servers", () => {
  it("starts a hub that has not started and lists each server's state, tools and prompts", async () => {
    const hub = hubOf({
      test: testServerEntry(["--dialogue"]),
      off: { ...testServerEntry(), disabled: true },
      missing: { command: "/nonexistent/mcp-server" },
    });
    const first = await answer(hub, { type: "list_mcp_servers" }, "mcp_servers");
    expect(first.servers.map((s) => [s.name, s.status])).toEqual([
      ["test", "starting"],
      ["off", "disabled"],
      ["missing", "starting"],
    ]);
    await hub.whenSettled(); // the command started them
    const { servers } = await answer(hub, { type: "list_mcp_servers" }, "mcp_servers");
    const test = servers.find((s) => s.name === "test")!;
    expect(test).toMatchObject({ status: "connected", resourceCount: 2 });
    expect(test.toolCount).toBe(test.tools.length);
    expect(test.tools).toEqual(expect.arrayContaining(["echo", "sleep", "crash"]));
    expect(test.prompts).toEqual([
      { name: "review", description: "Review a file.", arguments: [{ name: "file", required: true }] },
      { name: "dialogue", description: "A user and an assistant message." },
    ]);
    expect(servers.find((s) => s.name === "off")).toEqual({
      name: "off",
      status: "disabled",
      toolCount: 0,
      tools: [],
      resourceCount: 0,
      prompts: [],
    });
    expect(servers.find((s) => s.name === "missing")).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/could not start: .*ENOENT/),
    });
  });
});

describe("get_mcp_prompt", () => {
  it("fetches a prompt with its arguments over stdio and streamable HTTP", async () => {
    const remote = await startRemoteTestServer("http");
    remotes.push(remote);
    const hub = hubOf({ test: testServerEntry(), remote: { type: "http", url: remote.url } });
    // Sent before the servers are up: the hub waits for them within their timeout.
    const local = await answer(hub, getPrompt("test", "review", { file: "src/a.ts" }), "mcp_prompt");
    expect(local).toEqual({
      type: "mcp_prompt",
      server: "test",
      prompt: "review",
      description: "Review a file.",
      text: "Please review src/a.ts.",
      messages: [{ role: "user", text: "Please review src/a.ts." }],
    });
    const viaHttp = await answer(hub, getPrompt("remote", "review", { file: "b.ts" }), "mcp_prompt");
    expect(viaHttp.text).toBe("Please review b.ts.");
  });

  it("names roles and flattens embedded resources when a prompt has assistant messages", async () => {
    const hub = hubOf({ test: testServerEntry(["--dialogue"]) });
    hub.start();
    await hub.whenSettled();
    const event = await answer(hub, getPrompt("test", "dialogue"), "mcp_prompt");
    expect(event.text).toBe(
      "User: What is in the greeting?\n\nAssistant: [resource test://greeting]\nHello!",
    );
    expect(event.messages!.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("answers with an error for an unknown server or prompt, a missing argument, a disabled server", async () => {
    const hub = hubOf({
      test: testServerEntry(["--dialogue"]),
      off: { ...testServerEntry(), disabled: true },
    });
    hub.start();
    await hub.whenSettled();
    const errorOf = async (command: McpCommand) => {
      const event = await answer(hub, command, "mcp_prompt");
      expect(event.text).toBeUndefined();
      return event.error;
    };
    expect(await errorOf(getPrompt("ghost", "review"))).toBe('No MCP server named "ghost".');
    expect(await errorOf(getPrompt("test", "nope"))).toBe(
      'The MCP server "test" has no prompt named "nope"; it offers review, dialogue.',
    );
    expect(await errorOf(getPrompt("test", "review", { file: "  " }))).toBe(
      'The prompt review of the MCP server "test" needs the argument file.',
    );
    expect(await errorOf(getPrompt("off", "review", { file: "a" }))).toMatch(
      /^The prompt review of the MCP server "off" failed: The MCP server "off" is disabled\.$/,
    );
  });

  it("fetches a published server's prompts (server-everything) with required and optional arguments", async () => {
    const hub = hubOf({ everything: { command: EVERYTHING, args: ["stdio"] } });
    hub.start();
    await hub.whenSettled();
    const { servers } = await answer(hub, { type: "list_mcp_servers" }, "mcp_servers");
    const args = servers[0]!.prompts.find((prompt) => prompt.name === "args-prompt")!;
    expect(args.arguments).toEqual([
      { name: "city", description: "Name of the city", required: true },
      expect.objectContaining({ name: "state", required: false }),
    ]);
    const filled = await answer(
      hub,
      getPrompt("everything", "args-prompt", { city: "Lyon", state: "Rhône" }),
      "mcp_prompt",
    );
    expect(filled.text).toBe("What's weather in Lyon, Rhône?");
    const cityOnly = await answer(
      hub,
      getPrompt("everything", "args-prompt", { city: "Oslo" }),
      "mcp_prompt",
    );
    expect(cityOnly.text).toBe("What's weather in Oslo?");
    const missing = await answer(hub, getPrompt("everything", "args-prompt", {}), "mcp_prompt");
    expect(missing.error).toMatch(/needs the argument city/);
    // The server's own refusal (a bad argument value) comes back as an error too.
    const refused = await answer(
      hub,
      getPrompt("everything", "resource-prompt", { resourceType: "Text", resourceId: "-1" }),
      "mcp_prompt",
    );
    expect(refused.error).toMatch(
      /^The prompt resource-prompt of the MCP server "everything" failed: .*resourceId/,
    );
  });
});

/**
 * MCP tools in the tool set: each tool of a connected server is offered as its own native tool
 * (`<server>__mcp__<tool>`), calls route through the coordinator to the hub, and the result is
 * paired with the call. The hub here is a test double of the interface the MCP hub implements.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createNonInteractivePolicy } from "../../src/coding/approval-rules.js";
import { createTaskSession } from "../../src/coding/controller.js";
import type { McpCallResult, McpHub } from "../../src/coding/mcp/hub.js";
import { createModelClient } from "../../src/llm/create-client.js";
import type { Event } from "../../src/protocol/index.js";
import { makeWorkspace } from "../support/cli.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";

function createHubDouble() {
  const calls: Array<{ server: string; tool: string; args: Record<string, unknown> }> = [];
  const hub: McpHub = {
    listServers: () => [
      {
        name: "notes",
        tools: [
          {
            name: "read_note",
            description: "Reads a note by name.",
            inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
          { name: "x".repeat(70), inputSchema: { type: "object" } },
        ],
      },
      { name: "off", disabled: true, tools: [{ name: "hidden", inputSchema: { type: "object" } }] },
    ],
    async callTool(server, tool, args): Promise<McpCallResult> {
      calls.push({ server, tool, args });
      if (server === "notes" && tool === "read_note")
        return { content: [{ type: "text", text: `note ${args.name}: buy milk` }] };
      throw new Error("server went away");
    },
    async readResource() {
      throw new Error("no resources here");
    },
  };
  return { hub, calls };
}

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
});

async function run(script: ScriptedTurn[], hub: McpHub, yes: boolean) {
  server = await startFakeModelServer({ script });
  const { repo, home } = makeWorkspace();
  const model = await createModelClient({
    provider: "anthropic",
    wireFormat: "anthropic-messages",
    model: "fake-model",
    apiKey: "k",
    baseUrl: server.url,
    maxRetries: 0,
  });
  const events: Event[] = [];
  const session = await createTaskSession({
    cwd: repo,
    modelConfig: model.config,
    model,
    home,
    policy: createNonInteractivePolicy({ yes, allow: [] }),
    interactive: false,
    emit: (event) => events.push(event),
    mcpHub: hub,
  });
  const outcome = await session.run("Read my note.");
  await session.close();
  return { outcome, events, requests: server.requests };
}

describe("MCP tools through the coordinator", () => {
  it("offers one native tool per MCP tool, routes the call to the hub and pairs the result", async () => {
    const { hub, calls } = createHubDouble();
    const { outcome, events, requests } = await run(
      [
        { toolCalls: [{ id: "toolu_n", name: "notes__mcp__read_note", input: { name: "groceries" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "Buy milk." } }] },
      ],
      hub,
      true,
    );
    expect(outcome).toEqual({ status: "completed", result: "Buy milk." });
    const names = requests[0]!.body.tools.map((t: any) => t.name);
    expect(names).toContain("notes__mcp__read_note");
    expect(names.some((n: string) => n.includes("hidden"))).toBe(false);
    expect(names.some((n: string) => n.length > 64)).toBe(false);
    const tool = requests[0]!.body.tools.find((t: any) => t.name === "notes__mcp__read_note");
    expect(tool.input_schema.properties.name.type).toBe("string");
    expect(calls).toEqual([{ server: "notes", tool: "read_note", args: { name: "groceries" } }]);
    const result = requests[1]!.body.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: "toolu_n" });
    expect(JSON.stringify(result)).toContain("note groceries: buy milk");
    // The over-long tool is skipped with a warning the person sees.
    const notices = events.flatMap((e) =>
      e.type === "ui_message_added" && e.message.type === "say" && e.message.payload.say === "notice"
        ? [e.message.payload.text]
        : [],
    );
    expect(notices.join("\n")).toMatch(/longer than 64 characters/);
  });

  it("needs approval like any MCP call, and a failing server reaches the model as an error result", async () => {
    const { hub, calls } = createHubDouble();
    const denied = await run(
      [
        { toolCalls: [{ name: "notes__mcp__read_note", input: { name: "a" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] },
      ],
      hub,
      false,
    );
    expect(calls).toHaveLength(0);
    expect(JSON.stringify(denied.requests[1]!.body.messages.at(-1))).toContain("Denied");

    const failing = await run(
      [
        {
          toolCalls: [
            { name: "use_mcp_tool", input: { server_name: "nope", tool_name: "x", arguments: "{}" } },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] },
      ],
      hub,
      true,
    );
    expect(failing.outcome.status).toBe("completed");
    const text = JSON.stringify(failing.requests[1]!.body.messages.at(-1));
    expect(text).toMatch(/Unknown tool|No MCP server/);
  });
});

/**
 * 150 MCP tools on three real servers, a task driven by the scripted model: the tools' schemas
 * would take a fifth of the context, so the request lists names only; the model searches,
 * reads the schema it found and calls the tool through use_mcp_tool.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, describe, expect, it } from "vitest";
import { createNonInteractivePolicy } from "../../../src/coding/approval-rules.js";
import { createTaskSession } from "../../../src/coding/controller.js";
import { parseServer } from "../../../src/coding/mcp/config.js";
import { createMcpHub, type RunningMcpHub } from "../../../src/coding/mcp/mcp-hub.js";
import { createModelClient } from "../../../src/llm/create-client.js";
import { makeWorkspace } from "../../support/cli.js";
import type { RecordedRequest } from "../../support/fake-model-script.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../../support/fake-model-server.js";
import { testServerEntry } from "./support.js";

let model: FakeModelServer | undefined;
let hub: RunningMcpHub | undefined;
afterEach(async () => {
  await model?.close();
  await hub?.close();
});

/** Three servers with 60 + 50 + 40 distinct catalogue tools. */
function startHub(): RunningMcpHub {
  const layout = [
    ["github", 0, 60],
    ["tracker", 60, 50],
    ["ci", 110, 40],
  ] as const;
  const servers = layout.map(([name, offset, count]) => {
    const entry = testServerEntry(["--tools", String(count), "--offset", String(offset), "--catalog-only"]);
    const parsed = parseServer(name, entry, "user", "test", process.env);
    if ("message" in parsed) throw new Error(parsed.message);
    return parsed;
  });
  const created = createMcpHub({
    config: { servers, problems: [], lazySchemas: "auto" },
    cwd: process.cwd(),
  });
  created.start();
  return created;
}

/** The text of the last tool result in a request (Anthropic wire). */
function lastToolResult(request: RecordedRequest): string {
  const content = request.body.messages.at(-1).content as Array<{ type: string; content?: unknown }>;
  const result = content.find((block) => block.type === "tool_result")?.content ?? "";
  if (typeof result === "string") return result;
  return (result as Array<{ type: string; text?: string }>).map((block) => block.text ?? "").join("\n");
}

async function runTask(
  script: ScriptedTurn[] | ((request: RecordedRequest, index: number) => ScriptedTurn | undefined),
  text: string,
  toolProtocol?: "xml",
) {
  model = await startFakeModelServer({ script });
  const { repo, home } = makeWorkspace();
  const client = await createModelClient({
    provider: "anthropic",
    wireFormat: "anthropic-messages",
    model: "fake-model",
    apiKey: "k",
    baseUrl: model.url,
    maxRetries: 0,
  });
  const session = await createTaskSession({
    cwd: repo,
    modelConfig: client.config,
    model: client,
    home,
    policy: createNonInteractivePolicy({ yes: true, allow: [] }),
    interactive: false,
    emit: () => {},
    mcpHub: hub,
    toolProtocol,
  });
  const outcome = await session.run(text);
  await session.close();
  return outcome;
}

describe("150 MCP tools with lazy schemas", () => {
  it("keeps the MCP part of the request small, and the model finds and calls a tool", async () => {
    hub = startHub();
    await hub.whenSettled();
    expect(hub.listServers().flatMap((s) => s.tools)).toHaveLength(150);

    const script = (request: RecordedRequest, index: number): ScriptedTurn | undefined => {
      if (index === 0) {
        return {
          toolCalls: [{ id: "toolu_s", name: "search_mcp_tools", input: { query: "search invitations" } }],
        };
      }
      if (index === 1) {
        // The model reads the first tool found and calls it with the schema's required fields.
        const found = /### (\S+) \/ (\S+)/.exec(lastToolResult(request));
        if (!found) return { text: "nothing found" };
        const args = { owner: "octo", repo: "demo", query: "is:pending" };
        const call = { server_name: found[1], tool_name: found[2], arguments: args };
        return { toolCalls: [{ id: "toolu_c", name: "use_mcp_tool", input: call }] };
      }
      return { toolCalls: [{ name: "attempt_completion", input: { result: lastToolResult(request) } }] };
    };
    const outcome = await runTask(script, "Find pending invitations of octo/demo.");
    const tools = model!.requests[0]!.body.tools as Array<{ name: string; description: string }>;
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["use_mcp_tool", "search_mcp_tools"]));
    expect(names.some((name) => name.includes("__mcp__"))).toBe(false);
    const mcpPart = tools.filter((tool) => tool.name.includes("mcp"));
    expect(mcpPart.find((tool) => tool.name === "use_mcp_tool")!.description).toContain(
      "- search_invitation:",
    );
    const mcpTokens = countTokens(JSON.stringify(mcpPart));
    expect(mcpTokens).toBeLessThan(3000);
    // The same tools with their schemas would cost far more.
    expect(countTokens(JSON.stringify(hub.listServers().flatMap((s) => s.tools)))).toBeGreaterThan(
      4 * mcpTokens,
    );

    expect(lastToolResult(model!.requests[1]!)).toContain("### ci / search_invitation");
    expect(lastToolResult(model!.requests[2]!)).toBe(
      'search_invitation ran with {"owner":"octo","repo":"demo","query":"is:pending"}',
    );
    expect(outcome.status).toBe("completed");
  });

  it("offers MCP tools through use_mcp_tool on the XML protocol", async () => {
    const parsed = parseServer("test", testServerEntry(), "user", "test", process.env);
    if ("message" in parsed) throw new Error(parsed.message);
    hub = createMcpHub({
      config: { servers: [parsed], problems: [], lazySchemas: "auto" },
      cwd: process.cwd(),
    });
    hub.start();
    await hub.whenSettled();
    const call = [
      "<use_mcp_tool>",
      "<server_name>test</server_name>",
      "<tool_name>echo</tool_name>",
      '<arguments>{"text": "from xml"}</arguments>',
      "</use_mcp_tool>",
    ].join("\n");
    const done = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";
    const outcome = await runTask([{ text: call }, { text: done }], "Echo something.", "xml");
    expect(outcome.status).toBe("completed");
    const system = JSON.stringify(model!.requests[0]!.body.system);
    expect(system).toContain("## use_mcp_tool");
    expect(system).toContain("- echo: Echoes the text back.\\n  input: {");
    expect(system).not.toContain("__mcp__");
    expect(JSON.stringify(model!.requests[1]!.body.messages.at(-1))).toContain("echo: from xml");
  });

  it("tells the model when a call failed because its server crashed, and the restarted server serves the next", async () => {
    const parsed = parseServer("test", testServerEntry(), "user", "test", process.env);
    if ("message" in parsed) throw new Error(parsed.message);
    hub = createMcpHub({
      config: { servers: [parsed], problems: [], lazySchemas: "off" },
      cwd: process.cwd(),
      restart: { initialDelayMs: 50 },
    });
    hub.start();
    await hub.whenSettled();
    const outcome = await runTask(
      [
        { toolCalls: [{ id: "toolu_x", name: "test__mcp__crash", input: {} }] },
        { toolCalls: [{ id: "toolu_e", name: "test__mcp__echo", input: { text: "again" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] },
      ],
      "Crash the server, then echo.",
    );
    expect(outcome.status).toBe("completed");
    const crashed = model!.requests[1]!.body.messages.at(-1).content[0];
    expect(crashed).toMatchObject({ type: "tool_result", tool_use_id: "toolu_x", is_error: true });
    expect(lastToolResult(model!.requests[1]!)).toMatch(
      /^The MCP server "test" exited \(its last output: test server: crashing on purpose\) during the call of crash\. It is being restarted/,
    );
    expect(lastToolResult(model!.requests[2]!)).toBe("echo: again");
  });
});

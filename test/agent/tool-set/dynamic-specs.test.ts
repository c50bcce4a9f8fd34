import { describe, expect, it } from "vitest";
import { toAnthropicTools } from "../../../src/agent/tool-set/converters/anthropic.js";
import {
  createDynamicSpecSet,
  type McpToolSource,
  mcpToolSpecs,
  sanitizeToolName,
  subagentToolSpecs,
} from "../../../src/agent/tool-set/dynamic-specs.js";
import { ctx } from "./fixtures.js";

type Server = ReturnType<McpToolSource["listServers"]>[number];

/** A test double of the MCP hub: a fixed list of servers. */
function mcpSource(servers: Server[]): McpToolSource {
  return { listServers: () => servers };
}

const echoSchema = {
  type: "object",
  properties: { text: { type: "string", description: "What to echo." } },
  required: ["text"],
};

describe("mcpToolSpecs", () => {
  it("names each tool <server>__mcp__<tool> with id use_mcp_tool and routing back to the server", () => {
    const { specs, warnings } = mcpToolSpecs(
      mcpSource([
        { name: "echo", tools: [{ name: "say", description: "Echo text.", inputSchema: echoSchema }] },
      ]),
    );
    expect(warnings).toEqual([]);
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({
      id: "use_mcp_tool",
      name: "echo__mcp__say",
      description: "echo: Echo text.",
      mcp: { server: "echo", tool: "say" },
    });
    expect(toAnthropicTools(specs, ctx)[0]?.input_schema).toEqual(echoSchema);
  });

  it("leaves out disabled servers", () => {
    const { specs } = mcpToolSpecs(
      mcpSource([
        { name: "off", disabled: true, tools: [{ name: "a", inputSchema: echoSchema }] },
        { name: "on", tools: [{ name: "b", inputSchema: echoSchema }] },
      ]),
    );
    expect(specs.map((s) => s.name)).toEqual(["on__mcp__b"]);
  });

  it("sanitises names to [A-Za-z0-9_-] and uses the tool name when there is no description", () => {
    const { specs } = mcpToolSpecs(
      mcpSource([{ name: "my server.v2", tools: [{ name: "get/item:1", inputSchema: echoSchema }] }]),
    );
    expect(specs[0]?.name).toBe("my_server_v2__mcp__get_item_1");
    expect(specs[0]?.description).toBe("my server.v2: get/item:1");
    expect(specs[0]?.mcp).toEqual({ server: "my server.v2", tool: "get/item:1" });
    expect(sanitizeToolName("9lives")).toBe("_9lives");
  });

  it("skips names over 64 characters, collisions and non-object schemas, with a warning for the user", () => {
    const longTool = "t".repeat(64 - "srv__mcp__".length + 1);
    const fitting = "t".repeat(64 - "srv__mcp__".length);
    const { specs, warnings } = mcpToolSpecs(
      mcpSource([
        {
          name: "srv",
          tools: [
            { name: longTool, inputSchema: echoSchema },
            { name: fitting, inputSchema: echoSchema },
            { name: "a.b", inputSchema: echoSchema },
            { name: "a_b", inputSchema: echoSchema },
            { name: "scalar", inputSchema: { type: "string" } },
          ],
        },
      ]),
    );
    expect(specs.map((s) => s.name)).toEqual([`srv__mcp__${fitting}`, "srv__mcp__a_b"]);
    expect(specs[0]?.name).toHaveLength(64);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain(`MCP tool "${longTool}" of server "srv" is not offered`);
    expect(warnings[0]).toContain("longer than 64 characters");
    expect(warnings[1]).toContain('"a_b"');
    expect(warnings[2]).toContain('"scalar"');
  });
});

describe("subagentToolSpecs", () => {
  const agents = [
    { name: "reviewer", description: "Reviews a diff." },
    { name: "test writer", description: "Writes tests." },
  ];

  it("gives each subagent a use_subagent_<name> tool with a prompt parameter", () => {
    const specs = subagentToolSpecs(agents, ctx);
    expect(specs.map((s) => [s.id, s.name, s.subagent])).toEqual([
      ["use_subagents", "use_subagent_reviewer", "reviewer"],
      ["use_subagents", "use_subagent_test_writer", "test writer"],
    ]);
    expect(specs[0]?.description).toContain("Reviews a diff.");
    expect(toAnthropicTools(specs, ctx)[0]?.input_schema).toMatchObject({
      properties: { prompt: { type: "string" } },
      required: ["prompt"],
    });
  });

  it("offers none inside a subagent", () => {
    expect(subagentToolSpecs(agents, { ...ctx, isSubagent: true })).toEqual([]);
  });

  it("fits long names in 64 characters, keeping distinct agents distinct", () => {
    const specs = subagentToolSpecs(
      [
        { name: `${"x".repeat(70)}a`, description: "" },
        { name: `${"x".repeat(70)}b`, description: "" },
      ],
      ctx,
    );
    expect(specs.map((s) => s.name.length)).toEqual([64, 64]);
    expect(specs[0]?.name).not.toBe(specs[1]?.name);
  });
});

describe("createDynamicSpecSet", () => {
  it("changes version only when a source's specs change", () => {
    const set = createDynamicSpecSet();
    const empty = set.current();
    const source = mcpSource([{ name: "echo", tools: [{ name: "say", inputSchema: echoSchema }] }]);
    set.set("mcp", mcpToolSpecs(source).specs);
    const first = set.current();
    expect(first.version).not.toBe(empty.version);
    expect(first.specs.map((s) => s.name)).toEqual(["echo__mcp__say"]);

    set.set("mcp", mcpToolSpecs(source).specs); // new objects, same content
    expect(set.current()).toBe(first);

    set.set("subagents", subagentToolSpecs([{ name: "r", description: "d" }], ctx));
    expect(set.current().version).not.toBe(first.version);
    expect(set.current().specs.map((s) => s.name)).toEqual(["echo__mcp__say", "use_subagent_r"]);
  });

  it("gives two sets different versions", () => {
    expect(createDynamicSpecSet().current().version).not.toBe(createDynamicSpecSet().current().version);
  });
});

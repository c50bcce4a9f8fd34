/**
 * The MCP part of the tool offer: per-tool native specs (name folding, the 64-character rule,
 * disabled servers), lazy schemas (catalogue + search tool), the XML shape, resources, tools
 * that join later, and the servers' always-allow lists.
 */
import { describe, expect, it } from "vitest";
import { createMcpAutoApprove } from "../../../src/coding/mcp/approval.js";
import { mcpContentBlocks } from "../../../src/coding/mcp/content-blocks.js";
import type { McpCallResult, McpHub, McpServerInfo } from "../../../src/coding/mcp/hub.js";
import { createMcpOffer } from "../../../src/coding/mcp/mcp-offer.js";
import { prepareToolOffer } from "../../../src/coding/tool-offer.js";
import { PIXEL_PNG } from "../../support/mcp-test-server.js";
import { catalogTools } from "../../support/mcp-tool-catalog.js";

/** A hub double whose server list the test replaces (a new array, as the real hub does on a change). */
function hubDouble(servers: McpServerInfo[], lazySchemas?: McpHub["lazySchemas"]) {
  const state = { servers };
  const hub: McpHub = {
    lazySchemas,
    listServers: () => state.servers,
    callTool: async (): Promise<McpCallResult> => ({ content: [] }),
    readResource: async () => [],
  };
  return { hub, set: (next: McpServerInfo[]) => (state.servers = next) };
}

const schema = { type: "object", properties: { q: { type: "string" } } };
const github: McpServerInfo = { name: "github", status: "connected", tools: catalogTools(150).slice(0, 60) };
const small: McpServerInfo = {
  name: "my.server",
  status: "connected",
  tools: [
    { name: "get-file v2", description: "Reads a file.", inputSchema: schema },
    { name: "y".repeat(60), inputSchema: schema },
  ],
};

const names = (specs: readonly { name: string }[]) => specs.map((spec) => spec.name);

describe("MCP tool offer", () => {
  it("offers one native tool per MCP tool: folded names, over-long names and disabled servers left out", () => {
    const off: McpServerInfo = {
      name: "off",
      disabled: true,
      status: "disabled",
      tools: [{ name: "t", inputSchema: schema }],
    };
    const offer = createMcpOffer({
      hub: hubDouble([small, off]).hub,
      contextWindow: 200_000,
      supportsImages: false,
    });
    expect(names(offer.specs("native"))).toEqual(["my_server__mcp__get-file_v2"]);
    expect(offer.warnings()).toEqual([expect.stringMatching(/longer than 64 characters/)]);
    expect(offer.lazy()).toBe(false);
  });

  it("goes lazy when the schemas would pass a tenth of the context: a catalogue and the search tool", () => {
    const offer = createMcpOffer({
      hub: hubDouble([github]).hub,
      contextWindow: 40_000,
      supportsImages: false,
    });
    expect(offer.lazy()).toBe(true);
    const specs = offer.specs("native");
    expect(names(specs)).toEqual(["use_mcp_tool", "search_mcp_tools"]);
    const catalogue = specs[0]!.description;
    expect(catalogue).toContain("## github\n- get_issue: Gets an issue in a repository's tracker");
    expect(catalogue).not.toContain('"properties"');
    // The same window with room to spare: every tool natively.
    const roomy = createMcpOffer({
      hub: hubDouble([github]).hub,
      contextWindow: 1_000_000,
      supportsImages: false,
    });
    expect(roomy.lazy()).toBe(false);
    expect(roomy.specs("native")).toHaveLength(60);
  });

  it("follows the configured mode over the automatic choice", () => {
    const on = createMcpOffer({
      hub: hubDouble([small], "on").hub,
      contextWindow: 1_000_000,
      supportsImages: false,
    });
    expect(on.lazy()).toBe(true);
    const off = createMcpOffer({
      hub: hubDouble([github], "off").hub,
      contextWindow: 1000,
      supportsImages: false,
    });
    expect(off.lazy()).toBe(false);
  });

  it("offers use_mcp_tool with the tools and schemas on the XML path, and the search tool while servers start", () => {
    const { hub, set } = hubDouble([small, { name: "slow", status: "starting", tools: [] }]);
    const offer = createMcpOffer({ hub, contextWindow: 200_000, supportsImages: false });
    const specs = offer.specs("xml");
    expect(names(specs)).toEqual(["use_mcp_tool", "search_mcp_tools"]);
    expect(specs[0]!.description).toContain('- get-file v2: Reads a file.\n  input: {"type":"object"');
    expect(specs[0]!.description).toContain("Still starting: slow");
    set([small]);
    expect(names(offer.specs("xml"))).toEqual(["use_mcp_tool"]);
  });

  it("offers access_mcp_resource listing the resources, only when a server has some", () => {
    const withResources: McpServerInfo = {
      ...small,
      resources: [{ uri: "test://greeting", name: "greeting", description: "A greeting." }],
      resourceTemplates: [{ uriTemplate: "test://notes/{id}", name: "note" }],
    };
    const offer = createMcpOffer({
      hub: hubDouble([withResources]).hub,
      contextWindow: 200_000,
      supportsImages: false,
    });
    const spec = offer.specs("native").find((s) => s.name === "access_mcp_resource")!;
    expect(spec.description).toContain("- test://greeting: greeting - A greeting.");
    expect(spec.description).toContain("- test://notes/{id} (template): note");
    const none = createMcpOffer({
      hub: hubDouble([small]).hub,
      contextWindow: 200_000,
      supportsImages: false,
    });
    expect(names(none.specs("native"))).not.toContain("access_mcp_resource");
  });

  it("keeps the same specs while the server list is unchanged and rebuilds them when it changes", () => {
    const { hub, set } = hubDouble([small]);
    const offer = createMcpOffer({ hub, contextWindow: 200_000, supportsImages: false });
    const first = offer.specs("native");
    expect(offer.specs("native")).toBe(first);
    set([small, { name: "late", status: "connected", tools: [{ name: "hello", inputSchema: schema }] }]);
    expect(names(offer.specs("native"))).toEqual(["my_server__mcp__get-file_v2", "late__mcp__hello"]);
  });
});

describe("the search tool", () => {
  const offer = createMcpOffer({ hub: hubDouble([github]).hub, contextWindow: 1000, supportsImages: false });
  const search = offer.handlers.find((h) => h.name === "search_mcp_tools")!;
  const run = async (query: string) => String((await search.execute({ query }, {} as never)).content);

  it("finds tools by keywords and returns their full schemas", async () => {
    const text = await run("create a release");
    expect(text).toMatch(/^Found \d MCP tools?\. Call one with use_mcp_tool/);
    expect(text.indexOf("### github / create_release")).toBeGreaterThan(0);
    expect(text).toContain('"required":["owner","repo","title"]');
  });

  it("finds exact names in any of their spellings", async () => {
    const text = await run("github.delete_milestone, github__mcp__list_label");
    expect(text).toContain("### github / delete_milestone");
    expect(text).toContain("### github / list_label");
    expect(text).toMatch(/^Found 2 MCP tools/);
  });

  it("says so when nothing matches", async () => {
    expect(await run("kubernetes")).toMatch(/No MCP tool matches "kubernetes"\. Servers: github/);
  });
});

describe("prepareToolOffer with an MCP hub", () => {
  const base = {
    tools: [],
    wireFormat: "anthropic-messages" as const,
    model: "claude-sonnet-4-5",
    workspaceRoot: "/tmp",
    shell: "/bin/bash",
    mode: "act" as const,
  };

  it("adds the tools of a server that connects later at the next turn (native)", () => {
    const { hub, set } = hubDouble([{ name: "slow", status: "starting", tools: [] }]);
    const prepared = prepareToolOffer({ ...base, mcpHub: hub });
    if (prepared.offer.protocol !== "native") throw new Error("expected native");
    const starting = prepared.offer.definitions();
    expect(names(starting).some((n) => n.includes("__mcp__"))).toBe(false);
    // While it starts, the model can look for its tools and call them through use_mcp_tool.
    expect(names(starting)).toEqual(expect.arrayContaining(["use_mcp_tool", "search_mcp_tools"]));
    expect(starting.find((d) => d.name === "use_mcp_tool")!.description).toContain("Still starting: slow");
    expect(names(prepared.tools)).toEqual(expect.arrayContaining(["use_mcp_tool", "search_mcp_tools"]));
    set([{ name: "slow", status: "connected", tools: [{ name: "hello", inputSchema: schema }] }]);
    const joined = names(prepared.offer.definitions());
    expect(joined).toContain("slow__mcp__hello");
    expect(joined).not.toContain("use_mcp_tool");
    // A restart keeps its native tools and adds nothing.
    set([{ name: "slow", status: "restarting", tools: [{ name: "hello", inputSchema: schema }] }]);
    expect(names(prepared.offer.definitions())).toEqual(joined);
  });

  it("offers no MCP tools to the compact variant", () => {
    const prepared = prepareToolOffer({
      ...base,
      wireFormat: "openai-chat",
      compact: true,
      mcpHub: hubDouble([small]).hub,
    });
    expect(prepared.systemPrompt).not.toContain("mcp");
  });
});

describe("always-allow lists", () => {
  const servers: McpServerInfo[] = [
    { ...small, autoApprove: ["get-file v2"] },
    { name: "all", status: "connected", autoApprove: ["*"], tools: [{ name: "any", inputSchema: schema }] },
    { name: "off", status: "disabled", disabled: true, autoApprove: ["*"], tools: [] },
  ];
  const allowed = createMcpAutoApprove(hubDouble(servers).hub);

  it("allows listed tools by their folded name or through use_mcp_tool, and every tool of a '*' server", () => {
    expect(allowed("my_server__mcp__get-file_v2", {})).toBe(true);
    expect(allowed("use_mcp_tool", { server_name: "my.server", tool_name: "get-file v2" })).toBe(true);
    expect(allowed("use_mcp_tool", { server_name: "my.server", tool_name: "other" })).toBe(false);
    expect(allowed("all__mcp__any", {})).toBe(true);
    expect(allowed("access_mcp_resource", { server_name: "all", uri: "x" })).toBe(true);
    expect(allowed("access_mcp_resource", { server_name: "my.server", uri: "x" })).toBe(false);
    expect(allowed("use_mcp_tool", { server_name: "off", tool_name: "x" })).toBe(false);
    expect(allowed("unknown__mcp__x", {})).toBe(false);
  });
});

describe("MCP content as tool-result blocks", () => {
  it("passes images through to models that see them and names them for the others", () => {
    const image = { type: "image" as const, data: PIXEL_PNG, mimeType: "image/png" };
    const blob = { type: "resource" as const, uri: "test://pixel", mimeType: "image/png", blob: PIXEL_PNG };
    const binary = {
      type: "resource" as const,
      uri: "test://file.zip",
      mimeType: "application/zip",
      blob: "AAAA",
    };
    expect(mcpContentBlocks([image, blob, binary], true)).toEqual([
      { type: "image", mediaType: "image/png", data: PIXEL_PNG },
      { type: "image", mediaType: "image/png", data: PIXEL_PNG },
      { type: "text", text: "[resource test://file.zip: application/zip (3 bytes), not shown]" },
    ]);
    expect(mcpContentBlocks([image, blob], false)).toEqual([
      { type: "text", text: "[an image (image/png) was returned, but this model cannot view images]" },
      { type: "text", text: "[the image test://pixel was returned, but this model cannot view images]" },
    ]);
  });
});

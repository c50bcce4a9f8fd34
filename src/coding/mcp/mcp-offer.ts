import { estimateTokenCount } from "tokenx";
import { MCP_TOOL_ID } from "../../agent/pipeline/tool-names.js";
import type { ToolHandler } from "../../agent/tool.js";
import { type McpToolSpec, mcpToolSpecs } from "../../agent/tool-set/index.js";
import type { ToolSpec } from "../../agent/tool-spec.js";
import { createAccessMcpResourceTool } from "../tools/access-mcp-resource.js";
import { createSearchMcpToolsTool, SEARCH_MCP_TOOLS } from "../tools/search-mcp-tools.js";
import { createUseMcpTool } from "../tools/use-mcp-tool.js";
import type { McpHub, McpServerInfo } from "./hub.js";
import { type CatalogEntry, catalogEntries, catalogText } from "./tool-search.js";

/** MCP schemas may take this share of the context window before they are loaded on demand. */
export const LAZY_SCHEMA_SHARE = 0.1;

export interface McpOfferOptions {
  hub: McpHub;
  /** The model's context window in tokens. */
  contextWindow: number;
  supportsImages: boolean;
}

/**
 * The MCP part of a task's tool offer. Every MCP spec is dynamic: it follows what the servers
 * offer now, so tools of a server that connects late join at the next turn (native tools;
 * the XML prompt is built once, so there the search tool finds them).
 */
export interface McpOffer {
  /** use_mcp_tool, access_mcp_resource and search_mcp_tools: registered whatever is offered. */
  handlers: ToolHandler[];
  /**
   * The specs to offer now. Native, schemas small enough: one native tool per MCP tool, and
   * while servers make their first connection `use_mcp_tool` (naming them) and
   * `search_mcp_tools`, so the model can reach their tools before they join as native tools (a
   * restarting server keeps its native tools). Otherwise (XML, or lazy schemas): `use_mcp_tool`
   * whose description lists the tools by server (with schemas unless lazy), plus
   * `search_mcp_tools` when lazy or while servers are still starting. `access_mcp_resource`
   * (listing the resources) when any server has some.
   * The same array while the hub's server list is unchanged.
   */
  specs(protocol: "native" | "xml"): readonly ToolSpec[];
  /** MCP tools that cannot be offered, and why (for the person). */
  warnings(): readonly string[];
  /** Whether schemas are loaded on demand right now. */
  lazy(): boolean;
}

interface OfferState {
  servers: readonly McpServerInfo[];
  tools: McpToolSpec[];
  entries: CatalogEntry[];
  warnings: string[];
  lazy: boolean;
  specs: Map<string, readonly ToolSpec[]>;
}

const GENERIC_INPUT = {
  jsonSchema: {
    type: "object",
    properties: {
      server_name: { type: "string", description: "The MCP server." },
      tool_name: { type: "string", description: "The tool of that server." },
      arguments: { type: "object", description: "The tool's arguments, matching its input schema." },
    },
    required: ["server_name", "tool_name"],
  },
};

export function createMcpOffer(options: McpOfferOptions): McpOffer {
  const { hub } = options;
  const routes = new Map<string, { server: string; tool: string }>();
  let state: OfferState | undefined;

  /** Recomputed only when the hub hands out a new server list (the real hub keeps one until a change). */
  function current(): OfferState {
    const servers = hub.listServers();
    if (state?.servers === servers) return state;
    const { specs: tools, warnings } = mcpToolSpecs({ listServers: () => servers });
    routes.clear();
    for (const spec of tools) routes.set(spec.name, spec.mcp);
    const mode = hub.lazySchemas ?? "auto";
    const lazy =
      tools.length > 0 &&
      (mode === "on" || (mode === "auto" && schemaTokens(tools) > LAZY_SCHEMA_SHARE * options.contextWindow));
    state = { servers, tools, entries: catalogEntries(tools), warnings, lazy, specs: new Map() };
    return state;
  }

  const useMcp = createUseMcpTool({ hub, routes, supportsImages: options.supportsImages });
  const search = createSearchMcpToolsTool({ catalog: () => current().entries });
  const resources = createAccessMcpResourceTool({ hub, supportsImages: options.supportsImages });

  function build(now: OfferState, protocol: "native" | "xml"): readonly ToolSpec[] {
    const pending = now.servers.filter((s) => s.status === "starting" || s.status === "restarting");
    const specs: ToolSpec[] = [];
    if (protocol === "native" && !now.lazy) {
      specs.push(...now.tools);
      const starting = pending.filter((server) => server.status === "starting");
      if (starting.length > 0) {
        specs.push(genericSpec(useMcp, [], false, starting), handlerSpec(search, search.description));
      }
    } else if (now.tools.length > 0 || pending.length > 0) {
      specs.push(genericSpec(useMcp, now.entries, now.lazy, pending));
      if (now.lazy || pending.length > 0) specs.push(handlerSpec(search, search.description));
    }
    const listed = resourceText(now.servers);
    if (listed) specs.push(handlerSpec(resources, `${resources.description}\n${listed}`));
    return Object.freeze(specs);
  }

  return {
    handlers: [useMcp, resources, search],
    specs(protocol) {
      const now = current();
      let specs = now.specs.get(protocol);
      if (!specs) {
        specs = build(now, protocol);
        now.specs.set(protocol, specs);
      }
      return specs;
    },
    warnings: () => current().warnings,
    lazy: () => current().lazy,
  };
}

function handlerSpec(handler: ToolHandler, description: string): ToolSpec {
  return {
    id: handler.name,
    family: "generic",
    name: handler.name,
    description,
    inputSchema: handler.inputSchema,
  };
}

function genericSpec(
  handler: ToolHandler,
  entries: readonly CatalogEntry[],
  lazy: boolean,
  pending: readonly McpServerInfo[],
): ToolSpec {
  const parts = [handler.description];
  if (lazy)
    parts.push(
      `Input schemas are not listed: load a tool's schema with ${SEARCH_MCP_TOOLS} before calling it.`,
    );
  if (pending.length > 0) {
    parts.push(
      `Still starting: ${pending.map((s) => s.name).join(", ")} (find their tools with ${SEARCH_MCP_TOOLS} later).`,
    );
  }
  if (entries.length > 0) parts.push(`Tools by server:\n${catalogText(entries, !lazy)}`);
  return {
    id: MCP_TOOL_ID,
    family: "generic",
    name: MCP_TOOL_ID,
    description: parts.join("\n"),
    inputSchema: GENERIC_INPUT,
  };
}

/** Resources listed per server (at most this many each, then a count). */
const MAX_RESOURCES = 20;

function resourceText(servers: readonly McpServerInfo[]): string {
  const lines: string[] = [];
  for (const server of servers) {
    const resources = server.resources ?? [];
    const templates = server.resourceTemplates ?? [];
    if (server.disabled || resources.length + templates.length === 0) continue;
    lines.push(`## ${server.name}`);
    for (const resource of resources.slice(0, MAX_RESOURCES)) {
      lines.push(
        `- ${resource.uri}: ${resource.name}${resource.description ? ` - ${resource.description}` : ""}`,
      );
    }
    if (resources.length > MAX_RESOURCES) lines.push(`- ...and ${resources.length - MAX_RESOURCES} more`);
    for (const template of templates) {
      lines.push(`- ${template.uriTemplate} (template): ${template.description ?? template.name}`);
    }
  }
  return lines.length > 0 ? `Resources:\n${lines.join("\n")}` : "";
}

/** Estimated tokens of the tools as a provider receives them (name, description, schema). */
export function schemaTokens(specs: readonly McpToolSpec[]): number {
  let total = 0;
  for (const spec of specs) {
    const schema = "jsonSchema" in spec.inputSchema ? spec.inputSchema.jsonSchema : {};
    total += estimateTokenCount(JSON.stringify({ name: spec.name, description: spec.description, schema }));
  }
  return total;
}

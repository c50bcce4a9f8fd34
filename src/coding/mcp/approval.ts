import { MCP_TOOL_ID } from "../../agent/pipeline/tool-names.js";
import { mcpToolSpecs } from "../../agent/tool-set/index.js";
import { ACCESS_MCP_RESOURCE } from "../tools/access-mcp-resource.js";
import type { McpHub, McpServerInfo } from "./hub.js";

/**
 * The servers' own always-allow lists (`autoApprove` in mcp.json) as an approval rule: true
 * when the call is to a tool its server lists, or any tool of a server listing `"*"`.
 * `calledName` is the name the model called (`github__mcp__create_issue`, or `use_mcp_tool`
 * with server_name and tool_name in `input`; `access_mcp_resource` counts when the server
 * lists `"*"`). A true answer allows the call; false leaves it to the other rules. Never throws.
 */
export function createMcpAutoApprove(hub: McpHub): (calledName: string, input: unknown) => boolean {
  let seen: McpServerInfo[] | undefined;
  let routes = new Map<string, { server: string; tool: string }>();
  const routeOf = (name: string) => {
    const servers = hub.listServers();
    if (servers !== seen) {
      seen = servers;
      routes = new Map(
        mcpToolSpecs({ listServers: () => servers }).specs.map((spec) => [spec.name, spec.mcp]),
      );
    }
    return routes.get(name);
  };
  const allows = (server: string, tool: string | undefined) => {
    const info = hub.listServers().find((candidate) => candidate.name === server);
    if (!info || info.disabled) return false;
    const list = info.autoApprove ?? [];
    return list.includes("*") || (tool !== undefined && list.includes(tool));
  };
  return (calledName, input) => {
    const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
    if (calledName === MCP_TOOL_ID || calledName === ACCESS_MCP_RESOURCE) {
      if (typeof fields.server_name !== "string") return false;
      const tool =
        calledName === MCP_TOOL_ID && typeof fields.tool_name === "string" ? fields.tool_name : undefined;
      return allows(fields.server_name, tool);
    }
    const route = routeOf(calledName);
    return route !== undefined && allows(route.server, route.tool);
  };
}

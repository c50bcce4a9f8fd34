/**
 * Tool names that stand for a family of calls: MCP tools (`<server>__mcp__<tool>`) all route to
 * the `use_mcp_tool` handler, and configured subagents (`use_subagent_<name>`) to `use_subagents`.
 */

/** The handler every MCP tool call routes to. */
export const MCP_TOOL_ID = "use_mcp_tool";
/** Joins server and tool in an MCP tool name: `github__mcp__create_issue`. */
export const MCP_NAME_SEPARATOR = "__mcp__";
/** The handler every configured subagent routes to. */
export const SUBAGENTS_TOOL_ID = "use_subagents";
/** Prefix of a dynamic subagent tool name: `use_subagent_reviewer`. */
export const SUBAGENT_TOOL_PREFIX = "use_subagent_";

export function isMcpToolName(name: string): boolean {
  return name.includes(MCP_NAME_SEPARATOR);
}

/** `github__mcp__create_issue` -> `{ server: "github", tool: "create_issue" }`; undefined when not an MCP name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  const at = name.indexOf(MCP_NAME_SEPARATOR);
  if (at <= 0) return undefined;
  const tool = name.slice(at + MCP_NAME_SEPARATOR.length);
  return tool === "" ? undefined : { server: name.slice(0, at), tool };
}

export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_NAME_SEPARATOR}${tool}`;
}

/** `use_subagent_reviewer` -> `reviewer`; undefined when `name` is not a subagent tool name. */
export function subagentNameOf(name: string): string | undefined {
  if (!name.startsWith(SUBAGENT_TOOL_PREFIX)) return undefined;
  const subagent = name.slice(SUBAGENT_TOOL_PREFIX.length);
  return subagent === "" ? undefined : subagent;
}

import * as z from "zod/mini";
import { calledToolName } from "../../agent/pipeline/coordinator.js";
import { isMcpToolName, MCP_TOOL_ID } from "../../agent/pipeline/tool-names.js";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import { mcpContentBlocks } from "../mcp/content-blocks.js";
import { McpServerError } from "../mcp/errors.js";
import type { McpHub } from "../mcp/hub.js";

/**
 * Both call shapes: the generic `use_mcp_tool` (server_name, tool_name, arguments) used on the
 * XML path, and a native per-tool name (`<server>__mcp__<tool>`) whose input is the MCP tool's
 * own arguments (validated by the server against its own schema).
 */
const schema = z.record(z.string(), z.unknown());

export type UseMcpToolInput = z.infer<typeof schema>;

export interface UseMcpToolDetails {
  server: string;
  tool: string;
}

export interface UseMcpToolOptions {
  hub: McpHub;
  /** Native tool name -> the server and tool it stands for (names are sanitised for providers). */
  routes: ReadonlyMap<string, { server: string; tool: string }>;
  /** Images in results reach the model only when it can see them (default false: a note instead). */
  supportsImages?: boolean;
}

export function createUseMcpTool(
  options: UseMcpToolOptions,
): ToolHandler<UseMcpToolInput, UseMcpToolDetails> {
  return {
    name: MCP_TOOL_ID,
    description:
      "Calls a tool of a connected MCP server. server_name: the server; tool_name: its tool; arguments: a JSON object matching that tool's input schema.",
    inputSchema: schema,
    mutates: true,
    category: "mcp",
    summarize: (input) => {
      const target = resolveTarget(options, "", input);
      return "error" in target ? MCP_TOOL_ID : `${target.server}.${target.tool}`;
    },
    async execute(input, ctx): Promise<ToolResult<UseMcpToolDetails>> {
      const target = resolveTarget(options, calledToolName(ctx) ?? MCP_TOOL_ID, input);
      if ("error" in target) return { content: target.error, isError: true };
      try {
        const result = await options.hub.callTool(target.server, target.tool, target.args, ctx.signal);
        const blocks = mcpContentBlocks(result.content, options.supportsImages ?? false);
        return {
          content: blocks.length > 0 ? blocks : "(No response)",
          isError: result.isError || undefined,
          details: { server: target.server, tool: target.tool },
        };
      } catch (error) {
        // The hub's own errors already say which server failed and what to do about it.
        const message = (error as Error).message;
        return {
          content:
            error instanceof McpServerError
              ? message
              : `The MCP server "${target.server}" could not run ${target.tool}: ${message}`,
          isError: true,
          details: { server: target.server, tool: target.tool },
        };
      }
    },
  };
}

function resolveTarget(
  options: UseMcpToolOptions,
  calledName: string,
  input: Record<string, unknown>,
): { server: string; tool: string; args: Record<string, unknown> } | { error: string } {
  const route = options.routes.get(calledName);
  if (route) return { ...route, args: input };
  if (calledName !== MCP_TOOL_ID && isMcpToolName(calledName)) {
    return {
      error: `${calledName} is not offered now: its MCP server has stopped or no longer has this tool.`,
    };
  }
  const server = input.server_name;
  const tool = input.tool_name;
  if (typeof server !== "string" || typeof tool !== "string") {
    return { error: "use_mcp_tool needs server_name and tool_name (strings) and arguments (a JSON object)." };
  }
  let args = input.arguments ?? {};
  if (typeof args === "string") {
    try {
      args = args.trim() ? JSON.parse(args) : {};
    } catch (error) {
      return { error: `arguments is not valid JSON (${(error as Error).message}); pass a JSON object.` };
    }
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return { error: "arguments must be a JSON object." };
  }
  const found = options.hub.listServers().find((candidate) => candidate.name === server);
  if (found?.disabled) {
    const why = found.error ? `: ${found.error}` : "";
    return { error: `The MCP server "${server}" is ${found.status ?? "disabled"}${why}.` };
  }
  if (!found) {
    const names = options.hub
      .listServers()
      .filter((candidate) => !candidate.disabled)
      .map((candidate) => candidate.name);
    return { error: `No MCP server named "${server}". Connected servers: ${names.join(", ") || "none"}.` };
  }
  return { server, tool, args: args as Record<string, unknown> };
}

import type { McpToolSource } from "../../agent/tool-set/index.js";

/** One piece of an MCP tool result. */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource"; uri: string; text?: string };

export interface McpCallResult {
  content: McpContent[];
  isError?: boolean;
}

/**
 * What the coding tools need of the MCP hub: the servers and their tools (for the tool set)
 * and a way to call one. Contract: `callTool` rejects when the server cannot be reached or the
 * call times out; a tool's own failure is a result with `isError`.
 */
export interface McpHub extends McpToolSource {
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallResult>;
}

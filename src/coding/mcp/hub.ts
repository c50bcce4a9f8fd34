import type { McpToolSource } from "../../agent/tool-set/index.js";
import type { McpPrompt, McpServerStatus } from "../../protocol/mcp-commands.js";

/** Where a server is (see the protocol's McpServerStatusSchema). */
export type { McpServerStatus };

/** One piece of an MCP tool result or resource. `blob` is base64 (binary resources). */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource"; uri: string; mimeType?: string; text?: string; blob?: string };

export interface McpCallResult {
  content: McpContent[];
  isError?: boolean;
}

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface McpResourceInfo {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** A prompt template a server offers (hosts show them as slash commands). */
export type McpPromptInfo = McpPrompt;

/** A server as the tool set and hosts see it. Servers that are not connected list nothing. */
export interface McpServerInfo {
  name: string;
  /** True when its tools must not be offered (disabled, untrusted or invalid). */
  disabled?: boolean;
  tools: McpToolInfo[];
  status?: McpServerStatus;
  /** Why it is failed, untrusted or invalid; or the last crash while restarting. */
  error?: string;
  resources?: McpResourceInfo[];
  /** URI templates (RFC 6570) of resources the server can read. */
  resourceTemplates?: Array<{ uriTemplate: string; name: string; description?: string }>;
  prompts?: McpPromptInfo[];
  /**
   * What the server says about using it (the `instructions` of its initialize result), cut to
   * MAX_SERVER_INSTRUCTIONS characters; it joins the system prompt while the server is connected.
   */
  instructions?: string;
  /** Tools of this server that run without asking (`"*"`: all of them), from its `autoApprove`. */
  autoApprove?: readonly string[];
}

/**
 * What the coding tools need of the MCP hub: the servers and their tools (for the tool set),
 * a way to call one and to read a resource. Contract: `callTool` and `readResource` reject
 * with an actionable message when the server cannot be reached, crashed during the call, or
 * the call timed out or was aborted; a tool's own failure is a result with `isError`.
 */
export interface McpHub extends McpToolSource {
  listServers(): McpServerInfo[];
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallResult>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpContent[]>;
  /**
   * Calls `listener` whenever what `listServers` returns changes (a server connected, crashed,
   * or changed its tool list). Returns the unsubscribe function. Absent: the list never changes.
   */
  onChange?(listener: () => void): () => void;
  /**
   * Whether MCP tools are offered with names and one-line descriptions only, their schemas
   * loaded on demand by a search tool: `auto` when the schemas would take more than a tenth
   * of the context window. Default `auto`.
   */
  readonly lazySchemas?: "auto" | "on" | "off";
}

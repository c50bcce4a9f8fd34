import { type McpServerEntry, projectMcpFile, readMcpJson, userMcpFile } from "./config.js";
import { writeJsonFile } from "./trust.js";

export type McpScope = "user" | "project";

export function mcpFileOf(scope: McpScope, home: string, workspaceRoot: string): string {
  return scope === "user" ? userMcpFile(home) : projectMcpFile(workspaceRoot);
}

/** The entries of one mcp.json as written (empty when the file does not exist). Throws on bad JSON. */
export function readEntries(file: string): Record<string, McpServerEntry> {
  const servers = readMcpJson(file)?.mcpServers;
  return typeof servers === "object" && servers !== null ? (servers as Record<string, McpServerEntry>) : {};
}

/** Which files define `name`, user first. */
export function scopesDefining(name: string, home: string, workspaceRoot: string): McpScope[] {
  return (["user", "project"] as const).filter(
    (scope) => name in readEntries(mcpFileOf(scope, home, workspaceRoot)),
  );
}

/**
 * Rewrites one mcp.json with `change` applied to its `mcpServers`, keeping every other key.
 * The user's file is private (0600: it may hold tokens); the project's is an ordinary file, as
 * it is usually committed.
 */
export function editEntries(
  file: string,
  scope: McpScope,
  change: (servers: Record<string, McpServerEntry>) => void,
): void {
  const json = readMcpJson(file) ?? {};
  const servers = { ...readEntries(file) };
  change(servers);
  writeJsonFile(file, { ...json, mcpServers: servers }, scope === "user" ? 0o600 : 0o644);
}

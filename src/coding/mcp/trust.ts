import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { McpServerConfig } from "./config.js";

/**
 * Trust in project MCP servers. A project's `.bowline/mcp.json` can name any command, so its
 * servers start only once the person has trusted them. Trust is keyed on a hash of the
 * workspace, the server's name and its definition as written: any change to the definition
 * (command, args, env, url, autoApprove...) needs trust again; `disabled` does not count. Stored in
 * `~/.bowline/trusted-mcp.json`, mode 0600.
 */

interface TrustFile {
  v: 1;
  /** hash -> what was trusted, for the person reading the file. */
  trusted: Record<string, { workspace: string; server: string; trustedAt: string }>;
}

export function trustFile(home: string): string {
  return join(home, "trusted-mcp.json");
}

/** The hash a project server's trust is keyed on (`disabled` aside: switching a server off and on keeps it). */
export function trustKey(workspaceRoot: string, server: Pick<McpServerConfig, "name" | "entry">): string {
  const { disabled: _disabled, ...definition } = server.entry;
  const canonical = JSON.stringify([workspaceRoot, server.name, sortKeys(definition)]);
  return createHash("sha256").update(canonical).digest("hex");
}

/** User servers are always trusted; a project server when its current definition was trusted. */
export function isTrusted(
  home: string,
  workspaceRoot: string,
  server: Pick<McpServerConfig, "name" | "entry" | "scope">,
): boolean {
  if (server.scope === "user") return true;
  return trustKey(workspaceRoot, server) in readTrust(home).trusted;
}

/** Records trust in a project server's current definition. */
export function trustServer(
  home: string,
  workspaceRoot: string,
  server: Pick<McpServerConfig, "name" | "entry">,
): void {
  const file = readTrust(home);
  file.trusted[trustKey(workspaceRoot, server)] = {
    workspace: workspaceRoot,
    server: server.name,
    trustedAt: new Date().toISOString(),
  };
  writeJsonFile(trustFile(home), file);
}

function readTrust(home: string): TrustFile {
  const path = trustFile(home);
  if (!existsSync(path)) return { v: 1, trusted: {} };
  try {
    const json = JSON.parse(readFileSync(path, "utf8")) as Partial<TrustFile>;
    return { v: 1, trusted: typeof json.trusted === "object" && json.trusted ? json.trusted : {} };
  } catch {
    // An unreadable trust file trusts nothing; the next trust rewrites it.
    return { v: 1, trusted: {} };
  }
}

/** Writes JSON through a temporary file and a rename; `mode` 0600 (default) keeps it to the owner. */
export function writeJsonFile(path: string, value: unknown, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode });
  chmodSync(temp, mode);
  renameSync(temp, path);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

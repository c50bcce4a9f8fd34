import type { McpToolSpec } from "../../agent/tool-set/index.js";
import { specJsonSchema } from "../../agent/tool-set/index.js";

/** One MCP tool as the catalogue and the search tool know it. */
export interface CatalogEntry {
  server: string;
  tool: string;
  /** The native name (`server__mcp__tool`, sanitised). */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function catalogEntries(specs: readonly McpToolSpec[]): CatalogEntry[] {
  return specs.map((spec) => ({
    server: spec.mcp.server,
    tool: spec.mcp.tool,
    name: spec.name,
    // The spec's description starts with "<server>: ".
    description: spec.description.slice(spec.mcp.server.length + 2),
    inputSchema: specJsonSchema(spec),
  }));
}

const ONE_LINE = 72;

/** The first sentence of a description, cut to one short line. */
export function oneLine(description: string): string {
  const first = description
    .split(/(?<=[.!?])\s|\n/)[0]!
    .trim()
    .replace(/\.$/, "");
  return first.length <= ONE_LINE ? first : `${first.slice(0, ONE_LINE - 1).trimEnd()}…`;
}

/**
 * The tools by server, one line each: `- tool: what it does`, with its input schema as compact
 * JSON when `withSchemas` (otherwise the model loads schemas with the search tool).
 */
export function catalogText(entries: readonly CatalogEntry[], withSchemas: boolean): string {
  const lines: string[] = [];
  let server: string | undefined;
  for (const entry of entries) {
    if (entry.server !== server) {
      server = entry.server;
      lines.push(`## ${server}`);
    }
    lines.push(`- ${entry.tool}: ${withSchemas ? entry.description.trim() : oneLine(entry.description)}`);
    if (withSchemas) lines.push(`  input: ${JSON.stringify(entry.inputSchema)}`);
  }
  return lines.join("\n");
}

/**
 * The entries that best match `query`: exact names first (`tool`, `server.tool`,
 * `server/tool` or the native name; several may be given, separated by commas or spaces),
 * then by keyword hits in the name (weighted) and description. At most `limit`.
 */
export function searchCatalog(
  entries: readonly CatalogEntry[],
  query: string,
  limit: number,
): CatalogEntry[] {
  const words = query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const exact = entries.filter((entry) => words.some((word) => namesOf(entry).includes(word)));
  if (exact.length > 0) return exact.slice(0, limit);
  const terms = words.flatMap((word) => word.split(/[_./-]+/)).filter((term) => term.length > 1);
  const scored = entries
    .map((entry) => ({ entry, score: score(entry, terms) }))
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score);
  return scored.slice(0, limit).map((candidate) => candidate.entry);
}

function namesOf(entry: CatalogEntry): string[] {
  const tool = entry.tool.toLowerCase();
  const server = entry.server.toLowerCase();
  return [tool, entry.name.toLowerCase(), `${server}.${tool}`, `${server}/${tool}`];
}

function score(entry: CatalogEntry, terms: readonly string[]): number {
  const name = `${entry.server} ${entry.tool}`.toLowerCase().split(/[_\s.-]+/);
  const description = entry.description.toLowerCase();
  let total = 0;
  for (const term of terms) {
    const stem = term.replace(/(es|s)$/, "");
    if (name.includes(term) || name.some((part) => part.replace(/(es|s)$/, "") === stem)) total += 3;
    else if (name.some((part) => part.startsWith(stem))) total += 2;
    if (description.includes(stem)) total += 1;
  }
  return total;
}

/** A found tool with everything needed to call it. */
export function describeEntry(entry: CatalogEntry): string {
  return [
    `### ${entry.server} / ${entry.tool}`,
    entry.description.trim(),
    `Input schema: ${JSON.stringify(entry.inputSchema)}`,
  ].join("\n");
}

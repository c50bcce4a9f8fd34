import * as z from "zod/mini";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import { type CatalogEntry, describeEntry, searchCatalog } from "../mcp/tool-search.js";

export const SEARCH_MCP_TOOLS = "search_mcp_tools";

const schema = z.object({
  query: z
    .string()
    .check(
      z.minLength(1),
      z.describe(
        'Keywords describing what you need (e.g. "create issue"), or exact tool names ("server.tool"), separated by commas.',
      ),
    ),
});

export type SearchMcpToolsInput = z.infer<typeof schema>;

export interface SearchMcpToolsDetails {
  /** `server/tool` of each tool found. */
  found: string[];
}

/** How many tools one search returns with their schemas. */
const LIMIT = 5;

/**
 * Finds MCP tools by keyword or name and returns their full descriptions and input schemas.
 * Offered when MCP tools are listed by name only (their schemas would crowd the context), and
 * while servers are still starting (their tools are not in the prompt yet).
 */
export function createSearchMcpToolsTool(options: {
  /** The MCP tools known now (servers that joined after the prompt was built included). */
  catalog(): readonly CatalogEntry[];
}): ToolHandler<SearchMcpToolsInput, SearchMcpToolsDetails> {
  return {
    name: SEARCH_MCP_TOOLS,
    description:
      "Loads the input schemas of MCP tools: search by keywords or exact names. Call this before using an MCP tool whose schema you have not seen, then call the tool with use_mcp_tool.",
    inputSchema: schema,
    mutates: false,
    category: "none",
    summarize: (input) => `${SEARCH_MCP_TOOLS} ${input.query}`,
    async execute(input): Promise<ToolResult<SearchMcpToolsDetails>> {
      const entries = options.catalog();
      const found = searchCatalog(entries, input.query, LIMIT);
      if (found.length === 0) {
        const servers = [...new Set(entries.map((entry) => entry.server))].join(", ") || "none connected";
        return {
          content: `No MCP tool matches "${input.query}". Servers: ${servers}. Try other keywords or a server's name.`,
          details: { found: [] },
        };
      }
      return {
        content: [
          `Found ${found.length} MCP tool${found.length === 1 ? "" : "s"}. Call one with use_mcp_tool: server_name, tool_name, and arguments (an object matching its input schema).`,
          ...found.map(describeEntry),
        ].join("\n\n"),
        details: { found: found.map((entry) => `${entry.server}/${entry.tool}`) },
      };
    },
  };
}

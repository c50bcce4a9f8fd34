import * as z from "zod/mini";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import { mcpContentBlocks } from "../mcp/content-blocks.js";
import type { McpHub } from "../mcp/hub.js";

export const ACCESS_MCP_RESOURCE = "access_mcp_resource";

const schema = z.object({
  server_name: z.string().check(z.minLength(1), z.describe("The MCP server that provides the resource.")),
  uri: z
    .string()
    .check(z.minLength(1), z.describe("The URI of the resource (or of a resource template, filled in).")),
});

export type AccessMcpResourceInput = z.infer<typeof schema>;

export interface AccessMcpResourceDetails {
  server: string;
  uri: string;
}

/** Reads a resource (a file, a record, a document) that a connected MCP server provides. */
export function createAccessMcpResourceTool(options: {
  hub: McpHub;
  supportsImages: boolean;
}): ToolHandler<AccessMcpResourceInput, AccessMcpResourceDetails> {
  return {
    name: ACCESS_MCP_RESOURCE,
    description: "Reads a resource provided by a connected MCP server, by its URI.",
    inputSchema: schema,
    mutates: false,
    category: "mcp",
    summarize: (input) => `${input.server_name} ${input.uri}`,
    async execute(input, ctx): Promise<ToolResult<AccessMcpResourceDetails>> {
      const details = { server: input.server_name, uri: input.uri };
      try {
        const contents = await options.hub.readResource(input.server_name, input.uri, ctx.signal);
        const blocks = mcpContentBlocks(contents, options.supportsImages);
        return { content: blocks.length > 0 ? blocks : "(The resource is empty.)", details };
      } catch (error) {
        return {
          content: `The resource ${input.uri} of MCP server "${input.server_name}" could not be read: ${(error as Error).message}`,
          isError: true,
          details,
        };
      }
    },
  };
}

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { McpServerInfo } from "./hub.js";

/** What a connected server offers. */
export type ServerLists = Required<
  Pick<McpServerInfo, "tools" | "resources" | "resourceTemplates" | "prompts">
>;

export function emptyLists(): ServerLists {
  return { tools: [], resources: [], resourceTemplates: [], prompts: [] };
}

/** Pages followed at most: a server that keeps returning cursors is cut off here. */
const MAX_PAGES = 50;

/**
 * The server's tools, resources, resource templates and prompts, each only when its
 * capabilities advertise it, all pages, in parallel. Rejects when a listing fails.
 */
export async function loadLists(client: Client, timeoutMs: number): Promise<ServerLists> {
  const capabilities = client.getServerCapabilities() ?? {};
  const options = { timeout: timeoutMs };
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    capabilities.tools
      ? allPages(
          (cursor) => client.listTools({ cursor }, options),
          (page) => page.tools,
        )
      : [],
    capabilities.resources
      ? allPages(
          (cursor) => client.listResources({ cursor }, options),
          (page) => page.resources,
        )
      : [],
    capabilities.resources
      ? allPages(
          (cursor) => client.listResourceTemplates({ cursor }, options),
          (page) => page.resourceTemplates,
        ).catch(() => []) // optional even for servers with resources
      : [],
    capabilities.prompts
      ? allPages(
          (cursor) => client.listPrompts({ cursor }, options),
          (page) => page.prompts,
        )
      : [],
  ]);
  return {
    tools: tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema as Record<string, unknown>,
    })),
    resources: resources.map((resource) => ({
      uri: resource.uri,
      name: resource.name,
      ...(resource.description ? { description: resource.description } : {}),
      ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
    })),
    resourceTemplates: resourceTemplates.map((template) => ({
      uriTemplate: template.uriTemplate,
      name: template.name,
      ...(template.description ? { description: template.description } : {}),
    })),
    prompts: prompts.map((prompt) => ({
      name: prompt.name,
      ...(prompt.description ? { description: prompt.description } : {}),
      ...(prompt.arguments
        ? {
            arguments: prompt.arguments.map((argument) => ({
              name: argument.name,
              ...(argument.description ? { description: argument.description } : {}),
              ...(argument.required !== undefined ? { required: argument.required } : {}),
            })),
          }
        : {}),
    })),
  };
}

async function allPages<P extends { nextCursor?: string }, T>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  itemsOf: (page: P) => T[],
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...itemsOf(result));
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}

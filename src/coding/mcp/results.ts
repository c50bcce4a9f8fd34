import type { McpCallResult, McpContent } from "./hub.js";

/** A content item as servers send it (tools/call, prompts/get), loosely typed: servers vary. */
type WireContent = { type: string; [key: string]: unknown };

type WireResource = { uri: string; mimeType?: string; text?: string; blob?: string };

/**
 * A tools/call result as the hub returns it: text, images and embedded resources pass through;
 * audio and resource links become a line of text saying what they were. A result with no
 * content but `structuredContent` carries that as JSON text.
 */
export function toCallResult(result: Record<string, unknown>): McpCallResult {
  const items = Array.isArray(result.content) ? (result.content as WireContent[]) : [];
  const content = items.map(toContent);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
  }
  return { content, ...(result.isError === true ? { isError: true } : {}) };
}

export function toContent(item: WireContent): McpContent {
  switch (item.type) {
    case "text":
      return { type: "text", text: String(item.text ?? "") };
    case "image":
      return { type: "image", data: String(item.data ?? ""), mimeType: String(item.mimeType ?? "image/png") };
    case "resource":
      return fromResource(item.resource as WireResource);
    case "audio":
      return { type: "text", text: `[audio (${String(item.mimeType ?? "unknown type")}) not shown]` };
    case "resource_link": {
      const description = typeof item.description === "string" ? ` - ${item.description}` : "";
      return {
        type: "text",
        text: `[resource link ${String(item.uri)}: ${String(item.name ?? "")}${description}]`,
      };
    }
    default:
      return { type: "text", text: `[content of type ${item.type} not shown]` };
  }
}

/** One entry of resources/read (or an embedded resource). */
export function fromResource(resource: WireResource): McpContent {
  return {
    type: "resource",
    uri: resource.uri,
    ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
    ...(typeof resource.text === "string" ? { text: resource.text } : {}),
    ...(typeof resource.blob === "string" ? { blob: resource.blob } : {}),
  };
}

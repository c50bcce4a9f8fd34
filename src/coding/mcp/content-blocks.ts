import type { ImageBlock, TextBlock } from "../../llm/types.js";
import type { McpContent } from "./hub.js";

/** Image types every provider accepts in a tool result. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * MCP content as tool-result blocks: text as text; images (and image resources) as image
 * blocks when the model can see them, otherwise a line saying what was left out; text
 * resources with their URI; other binary resources as a line with their type and size.
 */
export function mcpContentBlocks(
  contents: readonly McpContent[],
  supportsImages: boolean,
): Array<TextBlock | ImageBlock> {
  const blocks: Array<TextBlock | ImageBlock> = [];
  for (const content of contents) {
    if (content.type === "text") blocks.push({ type: "text", text: content.text });
    else if (content.type === "image")
      blocks.push(imageOrNote(content.data, content.mimeType, supportsImages));
    else if (content.text !== undefined)
      blocks.push({ type: "text", text: `[resource ${content.uri}]\n${content.text}` });
    else if (content.blob !== undefined && IMAGE_TYPES.has(content.mimeType ?? "")) {
      blocks.push(imageOrNote(content.blob, content.mimeType!, supportsImages, content.uri));
    } else {
      const size = content.blob ? ` (${Math.floor((content.blob.length * 3) / 4)} bytes)` : "";
      blocks.push({
        type: "text",
        text: `[resource ${content.uri}: ${content.mimeType ?? "binary data"}${size}, not shown]`,
      });
    }
  }
  return blocks;
}

function imageOrNote(
  data: string,
  mimeType: string,
  supportsImages: boolean,
  uri?: string,
): TextBlock | ImageBlock {
  if (supportsImages && IMAGE_TYPES.has(mimeType)) return { type: "image", mediaType: mimeType, data };
  const what = uri ? `the image ${uri}` : `an image (${mimeType})`;
  return {
    type: "text",
    text: `[${what} was returned, but ${supportsImages ? "its type is not supported" : "this model cannot view images"}]`,
  };
}

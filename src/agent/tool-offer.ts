import type { ContentBlock, LlmToolDefinition, ToolResultBlock } from "../llm/types.js";
import { type Coordinator, createCoordinator } from "./pipeline/coordinator.js";
import type { XmlReplyOptions } from "./stream-reply.js";
import type { ToolHandler } from "./tool.js";
import { toLlmToolDefinitions } from "./tool-definitions.js";
import type { ToolCallRequest } from "./tool-executor.js";
import { coerceXmlParams, createXmlToolParser } from "./xml/index.js";

/**
 * How tools are offered to the model. Native: definitions travel in each request and calls come
 * back as structured tool calls. XML: the system prompt describes the tools, the model writes
 * calls as XML in its text, and results go back as text.
 */
export type ToolOffer =
  | { protocol: "native"; definitions(): LlmToolDefinition[] }
  | {
      protocol: "xml";
      /** Tool name -> its parameter names. */
      tools: ReadonlyMap<string, readonly string[]>;
      greedyParams?: ReadonlyMap<string, readonly string[]>;
      /** The JSON Schema of a tool's input, to type its string parameters. */
      jsonSchemaOf(name: string): Record<string, unknown> | undefined;
      /** The tools' section of the system prompt, so the context report can count it as tools. */
      toolSection?: string;
    };

export function coordinatorFor(tools: readonly ToolHandler[]): Coordinator {
  const coordinator = createCoordinator();
  for (const tool of tools) coordinator.register(tool);
  return coordinator;
}

export function nativeOffer(tools: readonly ToolHandler[]): ToolOffer {
  let definitions: LlmToolDefinition[] | undefined;
  return { protocol: "native", definitions: () => (definitions ??= toLlmToolDefinitions(tools)) };
}

/** A tool result in the XML protocol: `[tool for 'arg'] Result:` and the text (images kept). */
export function xmlResultBlocks(call: ToolCallRequest, result: ToolResultBlock): ContentBlock[] {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const key = ["path", "command", "regex", "question", "url", "query"].find(
    (k) => typeof input[k] === "string",
  );
  const label = key ? `[${call.name} for '${String(input[key])}']` : `[${call.name}]`;
  const texts = result.content.filter((b) => b.type === "text").map((b) => b.text);
  const images = result.content.filter((b) => b.type === "image");
  const head = result.isError ? `${label} Error:` : `${label} Result:`;
  return [{ type: "text", text: `${head}\n${texts.join("\n")}` }, ...images];
}

/** What `streamReply` needs for the XML protocol (a fresh parser per reply); undefined when native. */
export function xmlReplyOptionsFor(offer: ToolOffer, nextCallId: () => string): XmlReplyOptions | undefined {
  if (offer.protocol !== "xml") return undefined;
  return {
    parser: createXmlToolParser({ tools: offer.tools, greedyParams: offer.greedyParams }),
    toInput: (name, params) => coerceXmlParams(params, offer.jsonSchemaOf(name) ?? {}),
    nextCallId,
  };
}

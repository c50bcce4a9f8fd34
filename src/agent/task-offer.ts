/**
 * The task's side of the tool offer: what each request offers (the condense tool too, for the
 * turn after `/compact`), how replies are parsed, and how results go back to the model (tool
 * result blocks, or text in the XML protocol).
 */
import type { ContentBlock, LlmToolDefinition, ToolResultBlock } from "../llm/types.js";
import type { XmlReplyOptions } from "./stream-reply.js";
import type { ToolHandler } from "./tool.js";
import { toLlmToolDefinitions } from "./tool-definitions.js";
import type { ToolCallRequest } from "./tool-executor.js";
import { type ToolOffer, xmlReplyOptionsFor, xmlResultBlocks } from "./tool-offer.js";

export function createTaskOffer(offer: ToolOffer, condenseTool: ToolHandler | undefined) {
  const xml = offer.protocol === "xml";
  let xmlCallCount = 0;
  /** True for the turn after `/compact`: the condense tool is offered. */
  let condenseOffered = false;

  return {
    /** The XML text protocol (one call per message, results as text). */
    xml,
    offer,
    /** Offers the condense tool with the next request only (`/compact`). */
    offerCondense(offered: boolean): void {
      condenseOffered = offered;
    },
    /** The native definitions the next request carries; none in the XML protocol. */
    definitions(): LlmToolDefinition[] {
      if (offer.protocol !== "native") return [];
      const definitions = offer.definitions();
      return condenseOffered && condenseTool
        ? [...definitions, ...toLlmToolDefinitions([condenseTool])]
        : definitions;
    },
    /** How the next reply is parsed for calls (XML protocol); undefined for native calls. */
    replyOptions(): XmlReplyOptions | undefined {
      return xmlReplyOptionsFor(
        condenseOffered && offer.protocol === "xml"
          ? { ...offer, tools: new Map([...offer.tools, ["condense", ["context"]]]) }
          : offer,
        () => `xml_call_${++xmlCallCount}`,
      );
    },
    /** No tools at all (plain chat): a reply without calls is the answer. */
    offersNone(): boolean {
      return offer.protocol === "native" ? offer.definitions().length === 0 : offer.tools.size === 0;
    },
    /** The results as the model receives them, followed by `notes` (loop warnings and the like). */
    resultContent(calls: ToolCallRequest[], results: ToolResultBlock[], notes: string[]): ContentBlock[] {
      const content: ContentBlock[] = xml
        ? results.flatMap((r, i) => xmlResultBlocks(calls[i]!, r))
        : results;
      for (const note of notes) content.push({ type: "text", text: note });
      return content;
    },
    /** Whether a block of pending content carries tool results (all text does in the XML protocol). */
    isResult(block: ContentBlock): boolean {
      return block.type === "tool_result" || (xml && block.type === "text");
    },
  };
}

export type TaskOffer = ReturnType<typeof createTaskOffer>;

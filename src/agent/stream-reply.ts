import type { ContentBlock, LlmEvent, LlmUsage, ReasoningBlock, StopReason } from "../llm/types.js";
import type { Say, UiMessage } from "../protocol/index.js";
import type { ToolCallRequest } from "./tool-executor.js";
import type { UiMessageLog } from "./ui-messages.js";
import type { XmlParseEvent, XmlToolParser } from "./xml/index.js";

/** A streamed assistant reply, assembled. */
export interface AssistantReply {
  content: ContentBlock[];
  toolCalls: ToolCallRequest[];
  usage?: LlmUsage;
  stopReason: StopReason;
  error?: Omit<Extract<LlmEvent, { type: "error" }>, "type">;
  /** True when any text, reasoning or tool call arrived before the stream ended. */
  receivedAnything: boolean;
  /** Ids of the UI messages this reply created (text and reasoning). */
  uiMessageIds: string[];
  /** XML protocol: the name of a tool call the model left unclosed (it cannot run). */
  incompleteToolCall?: string;
}

/** The XML text protocol: tool calls are parsed out of the streamed text. */
export interface XmlReplyOptions {
  parser: XmlToolParser;
  /** Converts a complete call's string parameters to the tool's input (numbers, booleans, ...). */
  toInput(name: string, params: Record<string, string>): unknown;
  nextCallId(): string;
}

const UPDATE_INTERVAL_MS = 40;

/**
 * Consumes one model stream, showing text and reasoning as they grow (updates coalesced to
 * one per interval) and collecting complete tool calls. Never throws.
 */
export async function streamReply(
  events: AsyncIterable<LlmEvent>,
  ui: UiMessageLog,
  xml?: XmlReplyOptions,
): Promise<AssistantReply> {
  const reply: AssistantReply = {
    content: [],
    toolCalls: [],
    stopReason: "other",
    receivedAnything: false,
    uiMessageIds: [],
  };
  let live:
    | {
        kind: "text" | "reasoning";
        text: string;
        message: UiMessage;
        emittedAt: number;
        /** The opaque parts of a reasoning block (signature, item id, encrypted content). */
        opaque?: Omit<ReasoningBlock, "type" | "text">;
      }
    | undefined;

  const finishLive = () => {
    if (!live) return;
    ui.update(live.message, { say: live.kind, text: live.text } as Say, false);
    // XML protocol: the history keeps the raw text (with its XML), added at the end.
    if (live.kind === "text") {
      if (!xml) reply.content.push({ type: "text", text: live.text });
    } else reply.content.push({ type: "reasoning", text: live.text, ...live.opaque });
    live = undefined;
  };
  const grow = (kind: "text" | "reasoning", delta: string) => {
    reply.receivedAnything = true;
    if (live && live.kind !== kind) finishLive();
    if (!live) {
      const message = ui.say({ say: kind, text: delta }, true);
      reply.uiMessageIds.push(message.id);
      live = { kind, text: delta, message, emittedAt: Date.now() };
      return;
    }
    live.text += delta;
    const now = Date.now();
    if (now - live.emittedAt >= UPDATE_INTERVAL_MS) {
      live.message = ui.update(live.message, { say: kind, text: live.text }, true);
      live.emittedAt = now;
    }
  };

  let rawText = "";
  const onXml = (parsed: XmlParseEvent[]) => {
    for (const event of parsed) {
      if (event.type === "text_delta") grow("text", event.text);
      else if (event.type === "text_end" || event.type === "tool_start") finishLive();
      else if (event.type === "tool_end" && xml) {
        const id = xml.nextCallId();
        reply.toolCalls.push({ id, name: event.name, input: xml.toInput(event.name, event.params) });
      }
    }
  };

  try {
    for await (const event of events) {
      switch (event.type) {
        case "text_delta":
          if (xml) {
            reply.receivedAnything = true;
            rawText += event.text;
            onXml(xml.parser.push(event.text));
          } else grow("text", event.text);
          break;
        case "reasoning_delta": {
          const { type: _, text, ...opaque } = event;
          if (opaque.redacted !== undefined) {
            // Redacted thinking is a block of its own, with no text to show.
            reply.receivedAnything = true;
            finishLive();
            reply.content.push({ type: "reasoning", text: "", ...opaque });
            break;
          }
          if (text === "" && Object.keys(opaque).length > 0 && live?.kind !== "reasoning") {
            // Opaque reasoning with no summary text (e.g. encrypted reasoning items).
            reply.receivedAnything = true;
            finishLive();
            reply.content.push({ type: "reasoning", text: "", ...opaque });
            break;
          }
          grow("reasoning", text);
          if (live && Object.keys(opaque).length > 0) live.opaque = { ...live.opaque, ...opaque };
          break;
        }
        case "tool_call_start":
          reply.receivedAnything = true;
          finishLive();
          break;
        case "tool_call_delta":
          break;
        case "tool_call_end":
          reply.receivedAnything = true;
          finishLive();
          reply.toolCalls.push({
            id: event.id,
            name: event.name,
            input: event.input,
            parseError: event.parseError,
          });
          reply.content.push({
            type: "tool_call",
            id: event.id,
            name: event.name,
            input: event.input ?? {},
            ...(event.signature !== undefined ? { signature: event.signature } : {}),
          });
          break;
        case "usage":
          reply.usage = event.usage;
          break;
        case "notice":
          ui.say({ say: "notice", text: event.text });
          break;
        case "done":
          reply.stopReason = event.stopReason;
          break;
        case "error":
          reply.error = { ...event };
          break;
      }
    }
  } catch (error) {
    // Adapters must not throw; if one does, treat it as a failed turn rather than crash.
    reply.error = { message: error instanceof Error ? error.message : String(error), retryable: false };
  }
  if (xml) {
    onXml(xml.parser.end());
    const open = xml.parser.blocks().find((block) => block.type === "tool" && block.partial);
    if (open?.type === "tool") reply.incompleteToolCall = open.name;
    if (rawText) reply.content.push({ type: "text", text: rawText });
  }
  finishLive();
  return reply;
}

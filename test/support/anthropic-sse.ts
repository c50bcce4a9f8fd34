/**
 * Encodes a scripted turn as an Anthropic Messages stream: named SSE events, in the order the
 * real API sends them (message_start, ping, content blocks, message_delta, message_stop).
 */
import {
  chunkText,
  resolveUsage,
  type ScriptedTurn,
  type TurnContext,
  toolArgumentsText,
} from "./fake-model-script.js";
import type { WireCodec } from "./wire-codec.js";

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function blockFrames(index: number, start: unknown, deltas: unknown[]): string[] {
  return [
    frame("content_block_start", { type: "content_block_start", index, content_block: start }),
    ...deltas.map((delta) => frame("content_block_delta", { type: "content_block_delta", index, delta })),
    frame("content_block_stop", { type: "content_block_stop", index }),
  ];
}

/** The SSE frames of one streamed reply; each frame is one chunk on the wire. */
export function anthropicFrames(turn: ScriptedTurn, context: TurnContext): string[] {
  const usage = resolveUsage(turn, context);
  const size = context.chunkSize;
  const frames: string[] = [];
  frames.push(
    frame("message_start", {
      type: "message_start",
      message: {
        id: `msg_fake_${context.requestNumber}`,
        type: "message",
        role: "assistant",
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.inputTokens,
          cache_creation_input_tokens: usage.cacheWriteTokens,
          cache_read_input_tokens: usage.cacheReadTokens,
          output_tokens: 1,
          service_tier: "standard",
        },
      },
    }),
  );
  frames.push(frame("ping", { type: "ping" }));

  let index = 0;
  if (turn.reasoning) {
    const deltas: unknown[] = chunkText(turn.reasoning, size).map((thinking) => ({
      type: "thinking_delta",
      thinking,
    }));
    deltas.push({ type: "signature_delta", signature: `sig_fake_${context.requestNumber}_${index}` });
    frames.push(...blockFrames(index++, { type: "thinking", thinking: "", signature: "" }, deltas));
  }
  if (turn.text) {
    const deltas = chunkText(turn.text, size).map((text) => ({ type: "text_delta", text }));
    frames.push(...blockFrames(index++, { type: "text", text: "", citations: null }, deltas));
  }
  for (const call of turn.toolCalls ?? []) {
    const id = call.id ?? `toolu_fake_${context.nextToolCallNumber()}`;
    const pieces = chunkText(toolArgumentsText(call), size);
    const deltas = ["", ...pieces].map((partial_json) => ({ type: "input_json_delta", partial_json }));
    frames.push(...blockFrames(index++, { type: "tool_use", id, name: call.name, input: {} }, deltas));
  }

  const stopReason = turn.toolCalls && turn.toolCalls.length > 0 ? "tool_use" : "end_turn";
  frames.push(
    frame("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: {
        input_tokens: usage.inputTokens,
        cache_creation_input_tokens: usage.cacheWriteTokens,
        cache_read_input_tokens: usage.cacheReadTokens,
        output_tokens: usage.outputTokens,
      },
    }),
  );
  frames.push(frame("message_stop", { type: "message_stop" }));
  return frames;
}

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** An Anthropic error body, as sent with a non-2xx status. */
export function anthropicErrorBody(status: number, message: string, requestId: string): unknown {
  const type = errorTypes[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { type: "error", error: { type, message }, request_id: requestId };
}

export const anthropicCodec: WireCodec = {
  format: "anthropic-messages",
  streamContentType: "text/event-stream; charset=utf-8",
  matches: (path) => path === "/v1/messages",
  modelOf: (_path, body) => (typeof body?.model === "string" ? body.model : undefined),
  isStreaming: (_path, _query, body) => body?.stream === true,
  frames: (turn, context) => anthropicFrames(turn, context),
  errorResponse(status, message, requestNumber) {
    const requestId = `req_fake_${requestNumber}`;
    return { body: anthropicErrorBody(status, message, requestId), headers: { "request-id": requestId } };
  },
};

/**
 * Encodes a scripted turn as an OpenAI Chat Completions stream: `data:` lines carrying
 * `chat.completion.chunk` objects, an optional usage chunk, then `data: [DONE]`.
 */
import {
  chunkText,
  resolveUsage,
  type ScriptedTurn,
  type TurnContext,
  toolArgumentsText,
} from "./fake-model-script.js";
import type { WireCodec } from "./wire-codec.js";

export interface OpenAiChatStreamOptions {
  /** The request asked for `stream_options.include_usage`. */
  includeUsage: boolean;
}

function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** The SSE frames of one streamed reply; each frame is one chunk on the wire. */
export function openAiChatFrames(
  turn: ScriptedTurn,
  context: TurnContext,
  options: OpenAiChatStreamOptions,
): string[] {
  const size = context.chunkSize;
  const base = {
    id: `chatcmpl-fake${context.requestNumber}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: context.model,
    system_fingerprint: "fp_fake",
  };
  const chunk = (delta: unknown, finishReason: string | null = null): string =>
    frame({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(options.includeUsage ? { usage: null } : {}),
    });

  const frames: string[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of chunkText(turn.reasoning ?? "", size)) {
    frames.push(chunk({ content: null, reasoning_content: piece }));
  }
  for (const piece of chunkText(turn.text ?? "", size)) frames.push(chunk({ content: piece }));

  const calls = turn.toolCalls ?? [];
  calls.forEach((call, index) => {
    const id = call.id ?? `call_fake_${context.nextToolCallNumber()}`;
    frames.push(
      chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const piece of chunkText(toolArgumentsText(call), size)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  frames.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop"));

  if (options.includeUsage) {
    const usage = resolveUsage(turn, context);
    const promptTokens = usage.inputTokens + usage.cacheReadTokens;
    frames.push(
      frame({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: promptTokens + usage.outputTokens,
          prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: Math.ceil((turn.reasoning ?? "").length / 4),
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        },
      }),
    );
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}

const errorShapes: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
};

/** An OpenAI error body, as sent with a non-2xx status. */
export function openAiErrorBody(status: number, message: string): unknown {
  const shape = errorShapes[status] ?? {
    type: status >= 500 ? "server_error" : "invalid_request_error",
    code: null,
  };
  return { error: { message, type: shape.type, param: null, code: shape.code } };
}

export const openAiChatCodec: WireCodec = {
  format: "openai-chat",
  streamContentType: "text/event-stream; charset=utf-8",
  matches: (path) => path === "/v1/chat/completions",
  modelOf: (_path, body) => (typeof body?.model === "string" ? body.model : undefined),
  isStreaming: (_path, _query, body) => body?.stream === true,
  frames: (turn, context, body) =>
    openAiChatFrames(turn, context, { includeUsage: body?.stream_options?.include_usage === true }),
  errorResponse: (status, message, requestNumber) => ({
    body: openAiErrorBody(status, message),
    headers: { "x-request-id": `req_fake_${requestNumber}` },
  }),
};

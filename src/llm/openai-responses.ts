/** The model adapter for the OpenAI Responses wire format (OpenAI and compatible servers). */

import OpenAI from "openai";
import type { Response, ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";
import { openAiResponsesRequestBody, toOpenAiResponsesRequest } from "./openai-responses-request.js";
import { sdkClientOptions } from "./sdk-options.js";
import { type LlmErrorEvent, toErrorEvent, truncatedStreamEvent } from "./stream-error.js";
import { parseToolArguments } from "./tool-arguments.js";
import type { LlmEvent, LlmRequest, LlmUsage, ModelClient, ModelConfig, StopReason } from "./types.js";

/** A function call being streamed; `itemId` is the output item's id, sent back with the call. */
type OpenToolCall = { id: string; name: string; itemId: string | undefined; rawArguments: string };

function usageOf(usage: ResponseUsage): LlmUsage {
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, usage.input_tokens - cached),
    outputTokens: usage.output_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

function stopReasonOf(response: Response, madeToolCalls: boolean): StopReason {
  if (response.status === "incomplete") {
    return response.incomplete_details?.reason === "max_output_tokens" ? "max_tokens" : "other";
  }
  return madeToolCalls ? "tool_use" : "end_turn";
}

/**
 * A failure the server reports inside the stream. Its code (`server_error`, `rate_limit_exceeded`,
 * ...) decides whether a retry can help; a failure without a code is taken for a server error.
 */
function streamFailure(
  code: string | null | undefined,
  message: string | undefined,
  config: ModelConfig,
): LlmErrorEvent {
  const error = { error: { type: code || "server_error", message: message || "the response failed" } };
  return toErrorEvent(error, config.provider, [config.apiKey]);
}

/** Turns the events of one reply into Bowline events; function calls are keyed by output index. */
function createEventMapper(config: ModelConfig) {
  const calls = new Map<number, OpenToolCall>();
  let madeToolCalls = false;
  let over = false;

  function* endCall(outputIndex: number, finalArguments: string | undefined): Generator<LlmEvent> {
    const call = calls.get(outputIndex);
    if (!call) return;
    calls.delete(outputIndex);
    const rawArguments = finalArguments ?? call.rawArguments;
    yield {
      type: "tool_call_end",
      id: call.id,
      name: call.name,
      rawArguments,
      ...parseToolArguments(rawArguments),
      ...(call.itemId ? { signature: call.itemId } : {}),
    };
  }

  function* finish(response: Response): Generator<LlmEvent> {
    over = true;
    for (const index of [...calls.keys()]) yield* endCall(index, undefined);
    if (response.usage) yield { type: "usage", usage: usageOf(response.usage) };
    yield { type: "done", stopReason: stopReasonOf(response, madeToolCalls) };
  }

  function* map(event: ResponseStreamEvent): Generator<LlmEvent> {
    if (over) return;
    switch (event.type) {
      case "response.output_text.delta":
      case "response.refusal.delta":
        if (event.delta) yield { type: "text_delta", text: event.delta };
        return;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        if (event.delta) yield { type: "reasoning_delta", text: event.delta };
        return;
      case "response.reasoning_summary_part.added":
        // Summaries come in parts; keep them apart in the one text of the reasoning block.
        if (event.summary_index > 0) yield { type: "reasoning_delta", text: "\n\n" };
        return;
      case "response.output_item.added": {
        const item = event.item;
        if (item.type !== "function_call") return;
        calls.set(event.output_index, {
          id: item.call_id,
          name: item.name,
          itemId: item.id,
          rawArguments: "",
        });
        madeToolCalls = true;
        yield { type: "tool_call_start", id: item.call_id, name: item.name };
        return;
      }
      case "response.function_call_arguments.delta": {
        const call = calls.get(event.output_index);
        if (!call || event.delta === "") return;
        call.rawArguments += event.delta;
        yield { type: "tool_call_delta", id: call.id, argumentsDelta: event.delta };
        return;
      }
      case "response.function_call_arguments.done":
        yield* endCall(event.output_index, event.arguments);
        return;
      case "response.output_item.done": {
        const item = event.item;
        if (item.type === "function_call") yield* endCall(event.output_index, item.arguments);
        else if (item.type === "reasoning" && item.encrypted_content) {
          // The opaque half of the reasoning block whose text has just streamed.
          yield { type: "reasoning_delta", text: "", id: item.id, encrypted: item.encrypted_content };
        }
        return;
      }
      case "response.completed":
      case "response.incomplete":
        yield* finish(event.response);
        return;
      case "response.failed":
        over = true;
        yield streamFailure(event.response.error?.code, event.response.error?.message, config);
        return;
      case "error":
        over = true;
        yield streamFailure(event.code, event.message, config);
        return;
    }
  }

  return { map, isOver: () => over };
}

async function* streamReply(
  client: OpenAI,
  config: ModelConfig,
  request: LlmRequest,
  signal: AbortSignal,
): AsyncGenerator<LlmEvent> {
  if (signal.aborted) {
    yield { type: "done", stopReason: "aborted" };
    return;
  }
  const mapper = createEventMapper(config);
  try {
    const body = toOpenAiResponsesRequest(request, config);
    // Read to the end even after the final event, so the connection can serve the next request.
    const events = await client.responses.create(body, { signal, body: openAiResponsesRequestBody(body) });
    for await (const event of events) yield* mapper.map(event);
  } catch (error) {
    // A failure after the final event loses nothing: the reply has already ended.
    if (!signal.aborted && !mapper.isOver()) {
      yield toErrorEvent(error, config.provider, [config.apiKey]);
      return;
    }
  }
  if (mapper.isOver()) return;
  // The SDK ends the iteration quietly when the signal aborts it.
  if (signal.aborted) yield { type: "done", stopReason: "aborted" };
  else yield truncatedStreamEvent(config.provider);
}

/** A client for OpenAI's Responses API, or any server speaking the same wire format. */
export function createOpenAiResponsesClient(config: ModelConfig): ModelClient {
  const client = new OpenAI(sdkClientOptions(config));
  return {
    config,
    stream: (request, signal) => streamReply(client, config, request, signal),
  };
}

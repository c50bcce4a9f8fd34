/** The model adapter for the Anthropic Messages wire format. */

import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages, type RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import { anthropicRequestBody, toAnthropicRequest } from "./anthropic-request.js";
import { withConsoleWarnings } from "./console-warnings.js";
import { sdkClientOptions } from "./sdk-options.js";
import { toErrorEvent, truncatedStreamEvent } from "./stream-error.js";
import { parseToolArguments } from "./tool-arguments.js";
import type { LlmEvent, LlmRequest, LlmUsage, ModelClient, ModelConfig, StopReason } from "./types.js";

type OpenToolCall = { id: string; name: string; rawArguments: string };

function stopReasonOf(reason: string | null | undefined): StopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "tool_use":
      return "tool_use";
    case "max_tokens":
      return "max_tokens";
    default:
      return "other";
  }
}

type UsageReport = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
};

/** Folds a usage report into the running totals; Anthropic's numbers are cumulative. */
function mergeUsage(usage: LlmUsage, report: UsageReport): void {
  if (typeof report.input_tokens === "number") usage.inputTokens = report.input_tokens;
  if (typeof report.output_tokens === "number") usage.outputTokens = report.output_tokens;
  if (typeof report.cache_read_input_tokens === "number")
    usage.cacheReadTokens = report.cache_read_input_tokens;
  if (typeof report.cache_creation_input_tokens === "number") {
    usage.cacheWriteTokens = report.cache_creation_input_tokens;
  }
}

/** Turns the raw Anthropic events of one reply into Bowline events; holds the per-reply state. */
function createEventMapper() {
  const toolCalls = new Map<number, OpenToolCall>();
  const usage: LlmUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let stopReason: StopReason = "other";
  let finished = false;

  function* map(event: RawMessageStreamEvent): Generator<LlmEvent> {
    switch (event.type) {
      case "message_start":
        mergeUsage(usage, event.message.usage);
        return;
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "tool_use") {
          toolCalls.set(event.index, { id: block.id, name: block.name, rawArguments: "" });
          yield { type: "tool_call_start", id: block.id, name: block.name };
        } else if (block.type === "text" && block.text) {
          yield { type: "text_delta", text: block.text };
        } else if (block.type === "thinking" && block.thinking) {
          yield { type: "reasoning_delta", text: block.thinking };
        } else if (block.type === "redacted_thinking") {
          yield { type: "reasoning_delta", text: "", redacted: block.data };
        }
        return;
      }
      case "content_block_delta": {
        const delta = event.delta;
        if (delta.type === "text_delta") yield { type: "text_delta", text: delta.text };
        else if (delta.type === "thinking_delta") yield { type: "reasoning_delta", text: delta.thinking };
        else if (delta.type === "signature_delta") {
          yield { type: "reasoning_delta", text: "", signature: delta.signature };
        } else if (delta.type === "input_json_delta") {
          const call = toolCalls.get(event.index);
          if (!call || delta.partial_json === "") return;
          call.rawArguments += delta.partial_json;
          yield { type: "tool_call_delta", id: call.id, argumentsDelta: delta.partial_json };
        }
        return;
      }
      case "content_block_stop": {
        const call = toolCalls.get(event.index);
        if (!call) return;
        toolCalls.delete(event.index);
        const parsed = parseToolArguments(call.rawArguments);
        yield {
          type: "tool_call_end",
          id: call.id,
          name: call.name,
          rawArguments: call.rawArguments,
          ...parsed,
        };
        return;
      }
      case "message_delta":
        stopReason = stopReasonOf(event.delta.stop_reason);
        mergeUsage(usage, event.usage);
        return;
      case "message_stop":
        finished = true;
        yield { type: "usage", usage: { ...usage } };
        yield { type: "done", stopReason };
        return;
    }
  }

  return { map, isFinished: () => finished };
}

async function* streamReply(
  client: MessagesClient,
  config: ModelConfig,
  request: LlmRequest,
  signal: AbortSignal,
  warned: Set<string>,
): AsyncGenerator<LlmEvent> {
  if (signal.aborted) {
    yield { type: "done", stopReason: "aborted" };
    return;
  }
  const mapper = createEventMapper();
  try {
    const body = toAnthropicRequest(request, config);
    // The SDK warns of deprecated models on the console, which would write over a terminal UI:
    // each warning becomes a notice instead, once per client.
    const { value: created, warnings } = withConsoleWarnings(() =>
      client.messages.create(body, { signal, body: anthropicRequestBody(body) }),
    );
    for (const text of warnings) {
      if (warned.has(text)) continue;
      warned.add(text);
      yield { type: "notice", text };
    }
    const events = await created;
    for await (const event of events) yield* mapper.map(event);
    if (mapper.isFinished()) return;
  } catch (error) {
    // A failure after message_stop loses nothing: the reply has already ended with `done`.
    if (mapper.isFinished()) return;
    if (!signal.aborted) {
      yield toErrorEvent(error, config.provider, [config.apiKey]);
      return;
    }
  }
  // The SDK ends the iteration quietly when the signal aborts it.
  if (signal.aborted) yield { type: "done", stopReason: "aborted" };
  else yield truncatedStreamEvent(config.provider);
}

/**
 * The SDK's client with only the Messages resource: the full client brings every other API
 * (beta, files, skills ...) along, three times the code to load at start-up.
 */
class MessagesClient extends BaseAnthropic {
  messages = new Messages(this);
}

/** A client for Anthropic's Messages API, or a server speaking the same wire format. */
export function createAnthropicMessagesClient(config: ModelConfig): ModelClient {
  const client = new MessagesClient(sdkClientOptions(config));
  const warned = new Set<string>();
  return {
    config,
    stream: (request, signal) => streamReply(client, config, request, signal, warned),
  };
}

/** The model adapter for the OpenAI Chat Completions wire format (OpenAI and compatible servers). */

import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions/completions";
import { openAiChatRequestBody, toOpenAiChatRequest } from "./openai-chat-request.js";
import { sdkClientOptions } from "./sdk-options.js";
import { toErrorEvent, truncatedStreamEvent } from "./stream-error.js";
import { parseToolArguments } from "./tool-arguments.js";
import type { LlmEvent, LlmRequest, LlmUsage, ModelClient, ModelConfig, StopReason } from "./types.js";

type ToolCallState = { id: string | undefined; name: string; rawArguments: string; started: boolean };

/** Compatible servers stream reasoning in a field of their own (`reasoning_content`, `reasoning`). */
type Delta = ChatCompletionChunk.Choice.Delta & Record<string, unknown>;

const REASONING_FIELDS = ["reasoning_content", "reasoning"];

function reasoningOf(delta: Delta, field: string | undefined): string | undefined {
  for (const name of field ? [field, ...REASONING_FIELDS] : REASONING_FIELDS) {
    const value = delta[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function stopReasonOf(reason: string, hadToolCalls: boolean): StopReason {
  // Some compatible servers finish a tool-calling reply with `stop`.
  if (reason === "tool_calls" || reason === "function_call" || hadToolCalls) return "tool_use";
  if (reason === "stop") return "end_turn";
  if (reason === "length") return "max_tokens";
  return "other";
}

function usageOf(usage: NonNullable<ChatCompletionChunk["usage"]>): LlmUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, usage.prompt_tokens - cached),
    outputTokens: usage.completion_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

/** Turns chunks of one reply into Bowline events; tool calls accumulate per `index`. */
function createChunkMapper(reasoningField: string | undefined) {
  const calls = new Map<number, ToolCallState>();
  let finishReason: string | undefined;
  let usage: LlmUsage | undefined;

  function* toolCallDelta(part: ChatCompletionChunk.Choice.Delta.ToolCall): Generator<LlmEvent> {
    let call = calls.get(part.index);
    if (!call) {
      call = { id: undefined, name: "", rawArguments: "", started: false };
      calls.set(part.index, call);
    }
    if (part.id && !call.id) call.id = part.id;
    if (part.function?.name && !call.started) call.name += part.function.name;
    const fragment = part.function?.arguments ?? "";
    call.rawArguments += fragment;
    if (!call.started && call.name) {
      call.started = true;
      call.id ??= `call_${part.index}_${Date.now().toString(36)}`;
      yield { type: "tool_call_start", id: call.id, name: call.name };
      if (call.rawArguments)
        yield { type: "tool_call_delta", id: call.id, argumentsDelta: call.rawArguments };
    } else if (call.started && fragment) {
      yield { type: "tool_call_delta", id: call.id as string, argumentsDelta: fragment };
    }
  }

  function* endToolCalls(): Generator<LlmEvent> {
    const ordered = [...calls.entries()].sort(([a], [b]) => a - b);
    for (const [index, call] of ordered) {
      const id = call.id ?? `call_${index}`;
      if (!call.started) yield { type: "tool_call_start", id, name: call.name };
      const parsed = parseToolArguments(call.rawArguments);
      yield { type: "tool_call_end", id, name: call.name, rawArguments: call.rawArguments, ...parsed };
    }
  }

  function* map(chunk: ChatCompletionChunk): Generator<LlmEvent> {
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = (choice.delta ?? {}) as Delta;
    const reasoning = reasoningOf(delta, reasoningField);
    if (reasoning) yield { type: "reasoning_delta", text: reasoning };
    if (delta.content) yield { type: "text_delta", text: delta.content };
    for (const part of delta.tool_calls ?? []) yield* toolCallDelta(part);
    if (choice.finish_reason && finishReason === undefined) {
      finishReason = choice.finish_reason;
      yield* endToolCalls();
    }
  }

  function* finish(): Generator<LlmEvent> {
    if (usage) yield { type: "usage", usage };
    yield { type: "done", stopReason: stopReasonOf(finishReason ?? "", calls.size > 0) };
  }

  return { map, finish, isFinished: () => finishReason !== undefined };
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
  const mapper = createChunkMapper(config.quirks?.reasoningField);
  try {
    const body = toOpenAiChatRequest(request, config);
    const chunks = await client.chat.completions.create(body, { signal, body: openAiChatRequestBody(body) });
    for await (const chunk of chunks) yield* mapper.map(chunk);
  } catch (error) {
    // After the finish reason only the usage chunk can be lost; the reply itself is whole.
    if (!signal.aborted && !mapper.isFinished()) {
      yield toErrorEvent(error, config.provider, [config.apiKey]);
      return;
    }
  }
  // The SDK ends the iteration quietly when the signal aborts it.
  if (mapper.isFinished()) yield* mapper.finish();
  else if (signal.aborted) yield { type: "done", stopReason: "aborted" };
  else yield truncatedStreamEvent(config.provider);
}

/** A client for OpenAI's Chat Completions API, or any server speaking the same wire format. */
export function createOpenAiChatClient(config: ModelConfig): ModelClient {
  const client = new OpenAI(sdkClientOptions(config));
  return {
    config,
    stream: (request, signal) => streamReply(client, config, request, signal),
  };
}

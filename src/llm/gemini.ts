/** The model adapter for the Gemini API wire format (`streamGenerateContent` over SSE). */

import { randomBytes } from "node:crypto";
import {
  ApiError,
  type FunctionCall,
  type GenerateContentResponse,
  type GenerateContentResponseUsageMetadata,
  GoogleGenAI,
  type HttpOptions,
  type Part,
} from "@google/genai";
import { generatedCallId, toGeminiRequest } from "./gemini-request.js";
import { toErrorEvent, truncatedStreamEvent } from "./stream-error.js";
import { parseToolArguments } from "./tool-arguments.js";
import type { LlmEvent, LlmRequest, LlmUsage, ModelClient, ModelConfig, StopReason } from "./types.js";

/** Gemini ends every reply, tool calls included, with `STOP`. */
function stopReasonOf(reason: string | undefined, hadToolCalls: boolean): StopReason {
  if (reason === "STOP") return hadToolCalls ? "tool_use" : "end_turn";
  if (reason === "MAX_TOKENS") return "max_tokens";
  return "other";
}

/** `promptTokenCount` includes the cached tokens; thinking tokens are output the reply is billed for. */
function usageOf(metadata: GenerateContentResponseUsageMetadata): LlmUsage {
  const cached = metadata.cachedContentTokenCount ?? 0;
  return {
    inputTokens: Math.max(0, (metadata.promptTokenCount ?? 0) - cached),
    outputTokens: (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

/**
 * Turns the responses of one streamed reply into Bowline events. Each response holds whole parts:
 * text and thoughts are deltas, a function call arrives complete in one part.
 */
function createResponseMapper() {
  // Makes the ids of this reply's calls unique within a task (see `generatedCallId`).
  const replyKey = randomBytes(4).toString("hex");
  let calls = 0;
  let finishReason: string | undefined;
  let usage: LlmUsage | undefined;

  function* functionCall(call: FunctionCall, thoughtSignature: string | undefined): Generator<LlmEvent> {
    calls++;
    const { id = generatedCallId(replyKey, calls), name = "", args = {} } = call;
    const signature = thoughtSignature ? { signature: thoughtSignature } : {};
    const rawArguments = JSON.stringify(args);
    yield { type: "tool_call_start", id, name, ...signature };
    yield { type: "tool_call_delta", id, argumentsDelta: rawArguments };
    yield {
      type: "tool_call_end",
      id,
      name,
      rawArguments,
      ...parseToolArguments(rawArguments),
      ...signature,
    };
  }

  /**
   * A signature on a thought or text part belongs to the reply's reasoning (Gemini may send it alone
   * on an empty text part at the end), so it travels as reasoning and goes back as a thought part.
   */
  function* mapPart(part: Part): Generator<LlmEvent> {
    if (part.functionCall) {
      yield* functionCall(part.functionCall, part.thoughtSignature);
      return;
    }
    const signature = part.thoughtSignature ? { signature: part.thoughtSignature } : {};
    if (part.thought) {
      if (part.text || part.thoughtSignature)
        yield { type: "reasoning_delta", text: part.text ?? "", ...signature };
      return;
    }
    if (part.text) yield { type: "text_delta", text: part.text };
    if (part.thoughtSignature) yield { type: "reasoning_delta", text: "", ...signature };
  }

  function* map(response: GenerateContentResponse): Generator<LlmEvent> {
    // Each report is the running total of the reply, so the last one counts.
    if (response.usageMetadata) usage = usageOf(response.usageMetadata);
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) yield* mapPart(part);
    // A blocked prompt gets no candidate, only the reason it was blocked.
    finishReason ??= candidate?.finishReason ?? response.promptFeedback?.blockReason;
  }

  function* finish(): Generator<LlmEvent> {
    if (usage) yield { type: "usage", usage };
    yield { type: "done", stopReason: stopReasonOf(finishReason, calls > 0) };
  }

  return { map, finish, isFinished: () => finishReason !== undefined };
}

/**
 * The SDK reports an HTTP error (or an error sent inside the stream) as an `ApiError` whose message
 * is the JSON error body, possibly after a `got status: …` prefix. Unwrapped to `{ status, error }`
 * so `toErrorEvent` finds Gemini's own message.
 */
function unwrapError(error: unknown, config: ModelConfig): unknown {
  if (error instanceof ApiError) {
    const start = error.message.indexOf("{");
    try {
      return { status: error.status, error: JSON.parse(error.message.slice(start)) };
    } catch {
      return error;
    }
  }
  // The SDK enforces `timeout` by aborting the attempt, which looks like any other abort.
  if (error instanceof Error && error.name === "AbortError" && config.timeoutMs !== undefined) {
    return new Error(`no complete reply within ${config.timeoutMs} ms`, { cause: error });
  }
  return error;
}

async function* streamReply(
  client: GoogleGenAI,
  config: ModelConfig,
  request: LlmRequest,
  signal: AbortSignal,
): AsyncGenerator<LlmEvent> {
  if (signal.aborted) {
    yield { type: "done", stopReason: "aborted" };
    return;
  }
  const mapper = createResponseMapper();
  try {
    const responses = await client.models.generateContentStream(toGeminiRequest(request, config, signal));
    for await (const response of responses) yield* mapper.map(response);
  } catch (error) {
    // After the finish reason nothing of the reply is left to lose.
    if (!signal.aborted && !mapper.isFinished()) {
      yield toErrorEvent(unwrapError(error, config), config.provider, [config.apiKey]);
      return;
    }
  }
  if (mapper.isFinished()) yield* mapper.finish();
  else if (signal.aborted) yield { type: "done", stopReason: "aborted" };
  else yield truncatedStreamEvent(config.provider);
}

/**
 * The SDK's HTTP options. `fetch` is the SDK's own hook for a custom fetch, so record and replay see
 * every request; `retryOptions` retries 408, 429 and 5xx before the first byte, with backoff.
 */
function httpOptions(config: ModelConfig): HttpOptions {
  return {
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.headers ? { headers: config.headers } : {}),
    ...(config.timeoutMs !== undefined ? { timeout: config.timeoutMs } : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
    retryOptions: { attempts: (config.maxRetries ?? 2) + 1 },
  };
}

/** A client for the Gemini API (Google AI Studio keys), or a server speaking the same wire format. */
export function createGeminiClient(config: ModelConfig): ModelClient {
  // `vertexai: false` keeps GOOGLE_GENAI_USE_VERTEXAI in the environment from switching the backend.
  const client = new GoogleGenAI({
    vertexai: false,
    apiKey: config.apiKey,
    httpOptions: httpOptions(config),
  });
  return {
    config,
    stream: (request, signal) => streamReply(client, config, request, signal),
  };
}

/** The model adapter for the Amazon Bedrock Converse wire format (ConverseStream). */

import {
  BedrockRuntimeClient,
  type BedrockRuntimeClientConfig,
  type ContentBlockDeltaEvent,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  type TokenUsage,
} from "@aws-sdk/client-bedrock-runtime";
import { fetchRequestHandler, type SignedRequest } from "./bedrock-fetch-handler.js";
import { toBedrockRequest } from "./bedrock-request.js";
import {
  isRetryableStatus,
  type LlmErrorEvent,
  redactSecrets,
  toErrorEvent,
  truncatedStreamEvent,
} from "./stream-error.js";
import { parseToolArguments } from "./tool-arguments.js";
import type { LlmEvent, LlmRequest, LlmUsage, ModelClient, ModelConfig, StopReason } from "./types.js";

type OpenToolCall = { id: string; name: string; rawArguments: string };

function stopReasonOf(reason: string | undefined): StopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "tool_use":
      return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    default:
      return "other";
  }
}

/** Bedrock already counts cached input apart: `inputTokens` excludes cache reads and writes. */
function usageOf(usage: TokenUsage | undefined): LlmUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.cacheReadInputTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteInputTokens ?? 0,
  };
}

/**
 * Turns the events of one reply into Bowline events; holds the per-reply state. The reply is
 * complete at `messageStop`; the `metadata` event with the usage follows it.
 */
function createEventMapper() {
  const toolCalls = new Map<number, OpenToolCall>();
  let stopReason: StopReason | undefined;
  let usage: LlmUsage | undefined;

  function* delta(event: ContentBlockDeltaEvent): Generator<LlmEvent> {
    const value = event.delta;
    if (value?.text) yield { type: "text_delta", text: value.text };
    const reasoning = value?.reasoningContent;
    if (reasoning?.text) yield { type: "reasoning_delta", text: reasoning.text };
    if (reasoning?.signature) yield { type: "reasoning_delta", text: "", signature: reasoning.signature };
    if (reasoning?.redactedContent) {
      const redacted = Buffer.from(reasoning.redactedContent).toString("base64");
      yield { type: "reasoning_delta", text: "", redacted };
    }
    const call = toolCalls.get(event.contentBlockIndex ?? -1);
    const input = value?.toolUse?.input;
    if (call && input) {
      call.rawArguments += input;
      yield { type: "tool_call_delta", id: call.id, argumentsDelta: input };
    }
  }

  function* endToolCall(index: number | undefined): Generator<LlmEvent> {
    const call = toolCalls.get(index ?? -1);
    if (!call) return;
    toolCalls.delete(index ?? -1);
    const parsed = parseToolArguments(call.rawArguments);
    yield { type: "tool_call_end", id: call.id, name: call.name, rawArguments: call.rawArguments, ...parsed };
  }

  function* map(event: ConverseStreamOutput): Generator<LlmEvent> {
    if (event.contentBlockStart) {
      const tool = event.contentBlockStart.start?.toolUse;
      if (!tool?.toolUseId || !tool.name) return;
      toolCalls.set(event.contentBlockStart.contentBlockIndex ?? -1, {
        id: tool.toolUseId,
        name: tool.name,
        rawArguments: "",
      });
      yield { type: "tool_call_start", id: tool.toolUseId, name: tool.name };
    } else if (event.contentBlockDelta) {
      yield* delta(event.contentBlockDelta);
    } else if (event.contentBlockStop) {
      yield* endToolCall(event.contentBlockStop.contentBlockIndex);
    } else if (event.messageStop) {
      stopReason = stopReasonOf(event.messageStop.stopReason);
    } else if (event.metadata) {
      usage = usageOf(event.metadata.usage);
    }
  }

  function* finish(): Generator<LlmEvent> {
    if (usage) yield { type: "usage", usage };
    yield { type: "done", stopReason: stopReason ?? "other" };
  }

  return { map, finish, isFinished: () => stopReason !== undefined };
}

/** Errors Bedrock reports inside a started stream, and whether another attempt can help. */
const STREAM_EXCEPTIONS: Record<string, boolean> = {
  ThrottlingException: true,
  ServiceUnavailableException: true,
  InternalServerException: true,
  ModelStreamErrorException: true,
  ValidationException: false,
};

/** Failures to find credentials: retrying cannot help until the person fixes their setup. */
const CREDENTIAL_ERRORS = new Set(["CredentialsProviderError", "TokenProviderError"]);

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Turns anything the AWS SDK threw into the error event that ends a stream. AWS errors carry
 * their HTTP status in `$metadata.httpStatusCode` and their modelled type in `name`.
 */
function bedrockErrorEvent(error: unknown, provider: string, secrets: readonly string[]): LlmErrorEvent {
  const name = String(field(error, "name") ?? "Error");
  // The SDK appends debugging hints on later lines; the first line is the service's message.
  const detail = `${name}: ${String(field(error, "message") ?? "").split("\n")[0]}`;
  const status = field(field(error, "$metadata"), "httpStatusCode");
  if (typeof status === "number" && status >= 300) {
    return {
      type: "error",
      message: redactSecrets(`${provider} request failed with HTTP ${status}: ${detail}`, secrets),
      retryable: isRetryableStatus(status),
      status,
    };
  }
  const retryable = STREAM_EXCEPTIONS[name];
  if (retryable !== undefined) {
    return {
      type: "error",
      message: redactSecrets(`${provider} reported an error in the stream: ${detail}`, secrets),
      retryable,
    };
  }
  if (CREDENTIAL_ERRORS.has(name)) {
    return {
      type: "error",
      message: redactSecrets(`${provider} has no usable AWS credentials: ${detail}`, secrets),
      retryable: false,
    };
  }
  return toErrorEvent(error, provider, secrets);
}

/** Everything that could authenticate a request, so none of it can leak into a message. */
function knownSecrets(config: ModelConfig): string[] {
  const env = process.env;
  return [
    config.apiKey,
    env.AWS_SECRET_ACCESS_KEY,
    env.AWS_SESSION_TOKEN,
    env.AWS_BEARER_TOKEN_BEDROCK,
  ].filter((secret): secret is string => typeof secret === "string");
}

async function* streamReply(
  client: BedrockRuntimeClient,
  config: ModelConfig,
  request: LlmRequest,
  signal: AbortSignal,
): AsyncGenerator<LlmEvent> {
  if (signal.aborted) {
    yield { type: "done", stopReason: "aborted" };
    return;
  }
  const mapper = createEventMapper();
  try {
    const command = new ConverseStreamCommand(toBedrockRequest(config, request));
    const response = await client.send(command, { abortSignal: signal });
    for await (const event of response.stream ?? []) yield* mapper.map(event);
  } catch (error) {
    // After messageStop only the usage can be lost; the reply itself is whole.
    if (!signal.aborted && !mapper.isFinished()) {
      yield bedrockErrorEvent(error, config.provider, knownSecrets(config));
      return;
    }
  }
  if (mapper.isFinished()) yield* mapper.finish();
  else if (signal.aborted) yield { type: "done", stopReason: "aborted" };
  else yield truncatedStreamEvent(config.provider);
}

function regionOf(config: ModelConfig): string {
  return config.region || process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || "us-east-1";
}

/**
 * The SDK's options. Credentials come from the standard AWS chain (environment, profiles and
 * `~/.aws` files, SSO, instance metadata) unless the config holds a Bedrock API key, which is
 * sent as a bearer token; the SDK also picks one up from `AWS_BEARER_TOKEN_BEDROCK`.
 */
function clientConfig(config: ModelConfig): BedrockRuntimeClientConfig {
  return {
    region: regionOf(config),
    // maxAttempts counts the first attempt; maxRetries only the retries.
    maxAttempts: 1 + (config.maxRetries ?? 2),
    requestHandler: fetchRequestHandler(config.fetch ?? fetch, config.timeoutMs),
    ...(config.baseUrl ? { endpoint: config.baseUrl } : {}),
    ...(config.apiKey ? { token: { token: config.apiKey }, authSchemePreference: ["httpBearerAuth"] } : {}),
  };
}

/** A client for Amazon Bedrock's Converse API, streamed with ConverseStream. */
export function createBedrockConverseClient(config: ModelConfig): ModelClient {
  // The SDK would otherwise print a notice about future Node versions to the terminal.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const client = new BedrockRuntimeClient(clientConfig(config));
  const headers = config.headers;
  if (headers) {
    // Added before signing, so SigV4 covers them.
    client.middlewareStack.add(
      (next) => (args) => {
        const request = args.request as SignedRequest;
        request.headers = { ...request.headers, ...headers };
        return next(args);
      },
      { step: "build", name: "bowlineExtraHeaders" },
    );
  }
  return {
    config,
    stream: (request, signal) => streamReply(client, config, request, signal),
  };
}

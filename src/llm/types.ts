/**
 * The model-facing contract. Adapters are keyed by wire format; everything here is
 * independent of any one vendor's shapes.
 */

export type WireFormat = "anthropic-messages" | "openai-chat";

export type TextBlock = { type: "text"; text: string };
export type ImageBlock = { type: "image"; mediaType: string; data: string };
/** A tool call made by the assistant. `input` is the parsed JSON object of arguments. */
export type ToolCallBlock = { type: "tool_call"; id: string; name: string; input: unknown };
/** The result of a tool call, sent back in the next user message. */
export type ToolResultBlock = {
  type: "tool_result";
  callId: string;
  content: Array<TextBlock | ImageBlock>;
  isError?: boolean;
};
export type ReasoningBlock = { type: "reasoning"; text: string; signature?: string };

export type ContentBlock = TextBlock | ImageBlock | ToolCallBlock | ToolResultBlock | ReasoningBlock;

export interface LlmMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
}

/** A tool as offered to the model: name, description and the JSON Schema of its input. */
export interface LlmToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface LlmRequest {
  system: string;
  messages: LlmMessage[];
  tools: LlmToolDefinition[];
  maxOutputTokens?: number;
  temperature?: number;
}

/**
 * Tokens of one reply. `inputTokens` counts only input that was neither read from nor written
 * to the prompt cache, so the four numbers add up to the whole request and reply.
 */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "aborted" | "other";

/**
 * One event of a streamed reply. Tool calls are announced with `tool_call_start`, grow
 * through `tool_call_delta` (raw JSON text of the arguments) and end with `tool_call_end`
 * carrying the parsed input, or `parseError` when the JSON was malformed.
 */
export type LlmEvent =
  | { type: "text_delta"; text: string }
  /**
   * `signature` (Anthropic) arrives once at the end of a reasoning block; keep it with the block's
   * text so the block can be sent back in later requests.
   */
  | { type: "reasoning_delta"; text: string; signature?: string }
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; argumentsDelta: string }
  | {
      type: "tool_call_end";
      id: string;
      name: string;
      input: unknown;
      rawArguments: string;
      parseError?: string;
    }
  | { type: "usage"; usage: LlmUsage }
  | { type: "done"; stopReason: StopReason }
  | { type: "error"; message: string; retryable: boolean; status?: number };

export interface ModelConfig {
  /** The name the person chose: `anthropic`, `openai`, or a compatible server. */
  provider: string;
  wireFormat: WireFormat;
  model: string;
  apiKey: string;
  baseUrl?: string;
  maxOutputTokens?: number;
  /** Retries the SDK makes before the first byte of a reply arrives (default 2). */
  maxRetries?: number;
  /** How long one HTTP attempt may take, in milliseconds (default: the SDK's 10 minutes). */
  timeoutMs?: number;
}

/**
 * A model reached over one wire format.
 * Contract: `stream` never throws once called; every failure, including an abort, ends the
 * iteration with an `error` event (abort: a `done` event with stopReason `aborted`).
 */
export interface ModelClient {
  readonly config: ModelConfig;
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent>;
}

/**
 * The model-facing contract. Adapters are keyed by wire format; everything here is
 * independent of any one vendor's shapes.
 */

export type WireFormat =
  | "anthropic-messages"
  | "openai-chat"
  | "openai-responses"
  | "gemini"
  | "bedrock-converse";

export type TextBlock = { type: "text"; text: string };
export type ImageBlock = { type: "image"; mediaType: string; data: string };
/** A tool call made by the assistant. `input` is the parsed JSON object of arguments. */
export type ToolCallBlock = {
  type: "tool_call";
  id: string;
  name: string;
  input: unknown;
  /** Opaque data a wire format needs back with the call (Gemini thought signature, Responses item id). */
  signature?: string;
};
/** The result of a tool call, sent back in the next user message. */
export type ToolResultBlock = {
  type: "tool_result";
  callId: string;
  content: Array<TextBlock | ImageBlock>;
  isError?: boolean;
};
/**
 * The model's reasoning. `signature` (Anthropic, Bedrock, Gemini thought signatures) and
 * `encrypted` (OpenAI Responses encrypted reasoning items, with their item id in `id`) are opaque
 * and only sent back to the wire format that produced them.
 */
export type ReasoningBlock = {
  type: "reasoning";
  text: string;
  signature?: string;
  /** Anthropic redacted thinking: the opaque data of a block whose text is hidden. */
  redacted?: string;
  id?: string;
  encrypted?: string;
};

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
  messages: readonly LlmMessage[];
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

/** US dollars per million tokens, by kind of token (see `LlmUsage`). */
export interface ModelPrices {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** What Bowline knows of a model: from the catalogue, or safe defaults for an unknown one. */
export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  supportsImages: boolean;
  supportsNativeTools: boolean;
  supportsReasoning?: boolean;
  prices?: ModelPrices;
  /** The prompt variant that fits the model best, when the catalogue knows one. */
  promptVariant?: string;
  /**
   * How the model is asked to reason: `adaptive` (Anthropic adaptive thinking; a manual thinking
   * budget is refused), `budget` (a thinking budget in tokens), `effort` (an effort or thinking
   * level), `none` (the model takes no reasoning setting). Absent when the catalogue does not know.
   */
  thinking?: "adaptive" | "budget" | "effort" | "none";
  /** The model rejects a non-default temperature or top_p: adapters leave them out. */
  fixedSampling?: boolean;
  /** The provider caches marked prompt prefixes for this model (cache points on Bedrock). */
  promptCaching?: boolean;
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
   * text so the block can be sent back in later requests. `redacted`, `id` and `encrypted` carry
   * the other opaque parts of a reasoning block (see `ReasoningBlock`).
   */
  | {
      type: "reasoning_delta";
      text: string;
      signature?: string;
      redacted?: string;
      id?: string;
      encrypted?: string;
    }
  | { type: "tool_call_start"; id: string; name: string; signature?: string }
  | { type: "tool_call_delta"; id: string; argumentsDelta: string }
  | {
      type: "tool_call_end";
      id: string;
      name: string;
      input: unknown;
      rawArguments: string;
      parseError?: string;
      /** Opaque data to send back with the call (see `ToolCallBlock.signature`). */
      signature?: string;
    }
  | { type: "usage"; usage: LlmUsage }
  /** Something the person should know about the request (the SDK warned of a deprecated model). */
  | { type: "notice"; text: string }
  | { type: "done"; stopReason: StopReason }
  | {
      type: "error";
      message: string;
      retryable: boolean;
      status?: number;
      /** How long the provider asked us to wait (`retry-after`), in milliseconds. */
      retryAfterMs?: number;
      /**
       * `auth`: the key or credentials were refused (never retried). `context_overflow`: the
       * request was too long for the model's context window (the agent shortens the history).
       */
      kind?: "auth" | "context_overflow";
    };

/** Ways a server departs from its wire format, from the provider preset. */
export interface WireQuirks {
  /** The server rejects `strict` on tool schemas. */
  noStrict?: boolean;
  /** The server rejects `parallel_tool_calls` or can only make one call a turn. */
  noParallelToolCalls?: boolean;
  /** The field of a streamed delta that carries reasoning text (OpenAI-compatible servers). */
  reasoningField?: string;
  /** The server does not support `stream_options.include_usage`. */
  noStreamUsage?: boolean;
  /** The name of the reply-length field (`max_tokens` for older servers). */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

export interface ReasoningConfig {
  /** Thinking budget in tokens (Anthropic, Bedrock, Gemini). 0 turns thinking off. */
  budgetTokens?: number;
  /** Reasoning effort (OpenAI reasoning models). */
  effort?: "minimal" | "low" | "medium" | "high";
}

export interface ModelConfig {
  /** The name the person chose: `anthropic`, `openai`, a preset, or a compatible server. */
  provider: string;
  wireFormat: WireFormat;
  model: string;
  /** Empty for Bedrock, which signs requests with AWS credentials from the standard chain. */
  apiKey: string;
  baseUrl?: string;
  /** AWS region (Bedrock). */
  region?: string;
  quirks?: WireQuirks;
  reasoning?: ReasoningConfig;
  /** What the catalogue knows of the model; adapters read how it takes reasoning settings. */
  modelInfo?: Pick<ModelInfo, "thinking" | "fixedSampling" | "promptCaching">;
  /** Extra HTTP headers sent with every request (e.g. OpenRouter's attribution headers). */
  headers?: Record<string, string>;
  /**
   * The fetch the SDK uses. Record and replay wrap it; every adapter must pass it to its SDK
   * when set.
   */
  fetch?: typeof globalThis.fetch;
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

/**
 * The script a fake model server plays: one scripted turn per request, in order. Shared by the
 * wire-format encoders and the server itself.
 */

export type ScriptedToolCall = {
  id?: string;
  name: string;
  input?: unknown;
  /** Sent verbatim instead of JSON.stringify(input), to test malformed arguments. */
  rawArguments?: string;
};

export type ScriptedTurn = {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Same meaning as `LlmUsage`: `inputTokens` excludes cached input. */
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
  };
  /**
   * Faults:
   * - `http`: an HTTP error status with a provider-shaped error body (and `retry-after` seconds);
   * - `reset`: the connection is reset before any response;
   * - `drop`: the connection is reset after `afterChunks` stream chunks;
   * - `truncate`: the stream ends cleanly after `afterChunks` chunks, without its end marker;
   * - `stall`: after `afterChunks` chunks nothing more is sent, the connection stays open;
   * - `hang`: no response at all.
   */
  fault?:
    | { kind: "http"; status: number; message?: string; retryAfterSeconds?: number }
    | { kind: "reset" }
    | { kind: "drop"; afterChunks: number }
    | { kind: "truncate"; afterChunks: number }
    | { kind: "stall"; afterChunks: number }
    | { kind: "hang" };
  /** Delay between stream chunks in milliseconds (default 0). */
  chunkDelayMs?: number;
};

export type WireFormatName =
  | "anthropic-messages"
  | "openai-chat"
  | "openai-responses"
  | "gemini"
  | "bedrock-converse";

export type RecordedRequest = {
  format: WireFormatName;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** When the request arrived (ms since the epoch, sub-millisecond precision). */
  receivedAt: number;
  /** When the scripted reply was completely written (streamed replies only). */
  respondedAt?: number;
  /** With the server's `promptCache` option: how the request's input was served. */
  promptCache?: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
};

/** What an encoder needs besides the turn: naming, chunking and usage defaults. */
export interface TurnContext {
  /** 1-based number of this request among the server's requests. */
  readonly requestNumber: number;
  readonly model: string;
  readonly chunkSize: number;
  /** Rough input size of the request, used when the turn does not script `inputTokens`. */
  readonly defaultInputTokens: number;
  /** Returns the next server-wide tool call number (1, 2, ...). */
  nextToolCallNumber(): number;
}

export type ResolvedUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};

/** Splits text into pieces of at most `size` characters (code points, never half a pair). */
export function chunkText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  const step = Math.max(1, Math.floor(size));
  for (let i = 0; i < chars.length; i += step) pieces.push(chars.slice(i, i + step).join(""));
  return pieces;
}

/** The arguments text of a scripted call exactly as it goes on the wire. */
export function toolArgumentsText(call: ScriptedToolCall): string {
  if (call.rawArguments !== undefined) return call.rawArguments;
  return JSON.stringify(call.input ?? {});
}

/** Fills in plausible non-zero usage for whatever the turn leaves out. */
export function resolveUsage(turn: ScriptedTurn, context: TurnContext): ResolvedUsage {
  const generated =
    (turn.text ?? "").length +
    (turn.reasoning ?? "").length +
    (turn.toolCalls ?? []).reduce((sum, call) => sum + call.name.length + toolArgumentsText(call).length, 0);
  return {
    inputTokens: turn.usage?.inputTokens ?? context.defaultInputTokens,
    outputTokens: turn.usage?.outputTokens ?? Math.max(1, Math.ceil(generated / 4)),
    cacheReadTokens: turn.usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: turn.usage?.cacheWriteTokens ?? 0,
  };
}

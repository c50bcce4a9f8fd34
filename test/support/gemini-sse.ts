/**
 * Encodes a scripted turn as a Gemini `streamGenerateContent?alt=sse` stream: `data:` frames
 * ending in CRLF CRLF, each a whole `GenerateContentResponse` whose `candidates[0].content.parts`
 * carry thought parts, text parts or function calls. The last frame has the `finishReason` and the
 * final `usageMetadata`; there is no other end marker.
 *
 * Gemini has no tool call ids (a scripted `id` is sent as the optional `functionCall.id`) and sends
 * arguments as JSON objects, so a scripted `rawArguments` that is not a JSON object cannot be
 * encoded: the call goes out with `input` (or `{}`), and malformed arguments cannot be tested here.
 */
import {
  chunkText,
  type ResolvedUsage,
  resolveUsage,
  type ScriptedToolCall,
  type ScriptedTurn,
  type TurnContext,
} from "./fake-model-script.js";
import type { WireCodec } from "./wire-codec.js";

type Part = Record<string, unknown>;

/** `/v1beta/models/<model>:streamGenerateContent` and its siblings; group 1 is the model, 2 the method. */
const ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\r\n\r\n`;
}

/** The thought signature the fake hands out for a reply; tests expect it back on the next turn. */
export function fakeThoughtSignature(requestNumber: number): string {
  return Buffer.from(`fake-signature-${requestNumber}`).toString("base64");
}

function argsOf(call: ScriptedToolCall): Record<string, unknown> {
  if (call.input !== undefined) return call.input as Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.rawArguments ?? "");
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Not JSON: Gemini could not have sent it, so the call carries no arguments.
  }
  return {};
}

/**
 * The parts of each frame. With reasoning, Gemini signs the first function call of the reply, or
 * (without calls) sends the signature in a last frame holding only an empty text part.
 */
function partsPerFrame(turn: ScriptedTurn, context: TurnContext): Part[][] {
  const size = context.chunkSize;
  const signature = turn.reasoning ? fakeThoughtSignature(context.requestNumber) : undefined;
  const frames: Part[][] = [];
  for (const piece of chunkText(turn.reasoning ?? "", size)) frames.push([{ text: piece, thought: true }]);
  for (const piece of chunkText(turn.text ?? "", size)) frames.push([{ text: piece }]);
  const calls = (turn.toolCalls ?? []).map((call, index): Part => {
    const functionCall = { ...(call.id ? { id: call.id } : {}), name: call.name, args: argsOf(call) };
    return index === 0 && signature ? { functionCall, thoughtSignature: signature } : { functionCall };
  });
  if (calls.length > 0) frames.push(calls);
  else if (signature) frames.push([{ text: "", thoughtSignature: signature }]);
  if (frames.length === 0) frames.push([{ text: "" }]);
  return frames;
}

/** Intermediate frames report the prompt only; the last one reports everything. */
function usageMetadata(usage: ResolvedUsage, turn: ScriptedTurn, final: boolean): Record<string, unknown> {
  const promptTokenCount = usage.inputTokens + usage.cacheReadTokens;
  const promptTokensDetails = [{ modality: "TEXT", tokenCount: promptTokenCount }];
  if (!final) return { promptTokenCount, totalTokenCount: promptTokenCount, promptTokensDetails };
  const thoughts = turn.reasoning ? Math.min(usage.outputTokens, Math.ceil(turn.reasoning.length / 4)) : 0;
  const candidates = usage.outputTokens - thoughts;
  return {
    promptTokenCount,
    candidatesTokenCount: candidates,
    totalTokenCount: promptTokenCount + usage.outputTokens,
    promptTokensDetails,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(usage.cacheReadTokens > 0
      ? {
          cachedContentTokenCount: usage.cacheReadTokens,
          cacheTokensDetails: [{ modality: "TEXT", tokenCount: usage.cacheReadTokens }],
        }
      : {}),
  };
}

/** The SSE frames of one streamed reply; each frame is one chunk on the wire. */
export function geminiFrames(turn: ScriptedTurn, context: TurnContext): string[] {
  const usage = resolveUsage(turn, context);
  const parts = partsPerFrame(turn, context);
  return parts.map((frameParts, index) => {
    const final = index === parts.length - 1;
    return frame({
      candidates: [
        {
          content: { parts: frameParts, role: "model" },
          ...(final ? { finishReason: "STOP" } : {}),
          index: 0,
        },
      ],
      usageMetadata: usageMetadata(usage, turn, final),
      modelVersion: context.model,
      responseId: `fake-response-${context.requestNumber}`,
    });
  });
}

/** The canonical Google status name of an HTTP status. */
const statusNames: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "NOT_IMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/** A Gemini error body, as sent with a non-2xx status. */
export function geminiErrorBody(status: number, message: string): unknown {
  const name = statusNames[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION");
  return { error: { code: status, message, status: name } };
}

export const geminiCodec: WireCodec = {
  format: "gemini",
  streamContentType: "text/event-stream",
  matches: (path) => ROUTE.test(path),
  modelOf: (path) => {
    const model = ROUTE.exec(path)?.[1];
    return model === undefined ? undefined : decodeURIComponent(model);
  },
  isStreaming: (path) => ROUTE.exec(path)?.[2] === "streamGenerateContent",
  frames: (turn, context) => geminiFrames(turn, context),
  errorResponse: (status, message) => ({ body: geminiErrorBody(status, message) }),
};

/**
 * Encodes a scripted turn as a Bedrock ConverseStream reply: binary AWS event-stream messages
 * (`application/vnd.amazon.eventstream`), one JSON event each, in the order the real service
 * sends them (messageStart, content blocks, messageStop, metadata).
 */
import {
  chunkText,
  resolveUsage,
  type ScriptedTurn,
  type TurnContext,
  toolArgumentsText,
} from "./fake-model-script.js";
import type { WireCodec } from "./wire-codec.js";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE 802.3), the checksum of the event-stream prelude and message. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Headers as event-stream string headers: name length, name, type 7, value length, value. */
function encodeHeaders(headers: Record<string, string>): Uint8Array {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, "utf8");
    const valueBytes = Buffer.from(value, "utf8");
    const valueHead = Buffer.alloc(3);
    valueHead.writeUInt8(7, 0);
    valueHead.writeUInt16BE(valueBytes.length, 1);
    parts.push(Buffer.from([nameBytes.length]), nameBytes, valueHead, valueBytes);
  }
  return Buffer.concat(parts);
}

/**
 * One event-stream message: total length, headers length, prelude CRC, headers, payload,
 * message CRC (lengths and CRCs big-endian).
 */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const headerBytes = encodeHeaders(headers);
  const total = 12 + headerBytes.length + payload.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  message.set(headerBytes, 12);
  message.set(payload, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

/** The real service pads every event with a `p` field so lengths reveal nothing; the SDK ignores it. */
const PADDING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A ConverseStream event such as `contentBlockDelta`, with its JSON payload. */
export function bedrockEvent(eventType: string, payload: Record<string, unknown>): Uint8Array {
  const body = { ...payload, p: PADDING.slice(0, 1 + (eventType.length % PADDING.length)) };
  return encodeEventStreamMessage(
    { ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" },
    Buffer.from(JSON.stringify(body), "utf8"),
  );
}

/** An error the service reports inside a started stream, e.g. `throttlingException`. */
export function bedrockException(exceptionType: string, message: string): Uint8Array {
  return encodeEventStreamMessage(
    { ":exception-type": exceptionType, ":content-type": "application/json", ":message-type": "exception" },
    Buffer.from(JSON.stringify({ message }), "utf8"),
  );
}

function delta(contentBlockIndex: number, value: Record<string, unknown>): Uint8Array {
  return bedrockEvent("contentBlockDelta", { contentBlockIndex, delta: value });
}

/** The event-stream messages of one streamed reply; each message is one chunk on the wire. */
export function bedrockConverseFrames(turn: ScriptedTurn, context: TurnContext): Uint8Array[] {
  const usage = resolveUsage(turn, context);
  const size = context.chunkSize;
  const frames: Uint8Array[] = [bedrockEvent("messageStart", { role: "assistant" })];

  let index = 0;
  if (turn.reasoning) {
    for (const text of chunkText(turn.reasoning, size)) {
      frames.push(delta(index, { reasoningContent: { text } }));
    }
    const signature = `sig_fake_${context.requestNumber}_${index}`;
    frames.push(delta(index, { reasoningContent: { signature } }));
    frames.push(bedrockEvent("contentBlockStop", { contentBlockIndex: index++ }));
  }
  if (turn.text) {
    for (const text of chunkText(turn.text, size)) frames.push(delta(index, { text }));
    frames.push(bedrockEvent("contentBlockStop", { contentBlockIndex: index++ }));
  }
  for (const call of turn.toolCalls ?? []) {
    const toolUseId = call.id ?? `tooluse_fake_${context.nextToolCallNumber()}`;
    frames.push(
      bedrockEvent("contentBlockStart", {
        contentBlockIndex: index,
        start: { toolUse: { toolUseId, name: call.name } },
      }),
    );
    for (const input of chunkText(toolArgumentsText(call), size)) {
      frames.push(delta(index, { toolUse: { input } }));
    }
    frames.push(bedrockEvent("contentBlockStop", { contentBlockIndex: index++ }));
  }

  const stopReason = turn.toolCalls && turn.toolCalls.length > 0 ? "tool_use" : "end_turn";
  frames.push(bedrockEvent("messageStop", { stopReason }));
  frames.push(
    bedrockEvent("metadata", {
      usage: {
        // Bedrock counts cached input apart: inputTokens excludes cache reads and writes.
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        totalTokens: usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
        cacheReadInputTokens: usage.cacheReadTokens,
        cacheWriteInputTokens: usage.cacheWriteTokens,
      },
      metrics: { latencyMs: 42 },
    }),
  );
  return frames;
}

const errorTypes: Record<number, string> = {
  400: "ValidationException",
  401: "UnrecognizedClientException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  409: "ConflictException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/** The modelled error name Bedrock sends for an HTTP status. */
export function bedrockErrorType(status: number): string {
  return errorTypes[status] ?? (status >= 500 ? "ServiceUnavailableException" : "ValidationException");
}

const MODEL_PATH = /^\/model\/([^/]+)\/converse-stream$/;

export const bedrockConverseCodec: WireCodec = {
  format: "bedrock-converse",
  streamContentType: "application/vnd.amazon.eventstream",
  matches: (path) => MODEL_PATH.test(path),
  modelOf: (path) => {
    const encoded = MODEL_PATH.exec(path)?.[1];
    return encoded === undefined ? undefined : decodeURIComponent(encoded);
  },
  // The path alone says the reply is streamed.
  isStreaming: (path) => MODEL_PATH.test(path),
  frames: (turn, context) => bedrockConverseFrames(turn, context),
  errorResponse: (status, message, requestNumber) => ({
    body: { message },
    headers: {
      "x-amzn-errortype": `${bedrockErrorType(status)}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      "x-amzn-requestid": `req-fake-${requestNumber}`,
    },
  }),
};

/**
 * Token estimates of a request before it is sent. The provider's count of the previous request
 * is exact for everything that request contained, so only what was appended since is estimated
 * (with tokenx, about 2% off o200k); without a count, every part is estimated.
 */
import { estimateTokenCount } from "tokenx";
import type { ContentBlock, LlmMessage, LlmToolDefinition, LlmUsage } from "../../llm/types.js";

/** What an image is counted as: about what Anthropic charges for a 1.15-megapixel image. */
export const IMAGE_TOKENS = 1600;
/** Role markers and separators around each message. */
const MESSAGE_OVERHEAD = 4;
/** The framing of a tool call or result (ids, names, wrappers). */
const TOOL_BLOCK_OVERHEAD = 8;

export const estimateTextTokens = (text: string): number => estimateTokenCount(text);

/** One content block (a tool result with everything in it). */
export function estimateBlockTokens(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return estimateTextTokens(block.text);
    case "image":
      return IMAGE_TOKENS;
    case "tool_call":
      return (
        TOOL_BLOCK_OVERHEAD +
        estimateTextTokens(block.name) +
        estimateTextTokens(JSON.stringify(block.input ?? {}))
      );
    case "tool_result":
      return TOOL_BLOCK_OVERHEAD + block.content.reduce((sum, part) => sum + estimateBlockTokens(part), 0);
    case "reasoning":
      return estimateTextTokens(block.text) + Math.ceil((block.redacted?.length ?? 0) / 4);
  }
}

// History messages are immutable, so a message is counted once however long the task runs.
const messageTokens = new WeakMap<LlmMessage, number>();

export function estimateMessageTokens(message: LlmMessage): number {
  let tokens = messageTokens.get(message);
  if (tokens === undefined) {
    tokens = MESSAGE_OVERHEAD + message.content.reduce((sum, block) => sum + estimateBlockTokens(block), 0);
    messageTokens.set(message, tokens);
  }
  return tokens;
}

export function estimateMessagesTokens(messages: readonly LlmMessage[], from = 0): number {
  let tokens = 0;
  for (let i = from; i < messages.length; i++) tokens += estimateMessageTokens(messages[i]!);
  return tokens;
}

const toolTokens = new WeakMap<LlmToolDefinition, number>();

/** Tool definitions as their JSON; definitions are cached objects, so each is counted once. */
export function estimateToolTokens(tools: readonly LlmToolDefinition[]): number {
  let sum = 0;
  for (const tool of tools) {
    let tokens = toolTokens.get(tool);
    if (tokens === undefined) {
      tokens = TOOL_BLOCK_OVERHEAD + estimateTextTokens(JSON.stringify(tool));
      toolTokens.set(tool, tokens);
    }
    sum += tokens;
  }
  return sum;
}

/** The whole prompt of a reply, as its usage reports it (see `LlmUsage`). */
export const promptTokens = (usage: LlmUsage): number =>
  usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;

/** A request that was sent, with the provider's count of its prompt. */
export interface CountedRequest {
  messages: readonly LlmMessage[];
  /** The estimate of its system prompt and tools (to carry over a change of either). */
  fixedTokens: number;
  usage: LlmUsage;
}

/**
 * The tokens of a request of `messages` (plus system prompt and tools, estimated as
 * `fixedTokens`). When `counted` was sent with a prefix of the same messages (the same objects),
 * its provider count stands for that prefix and only the messages after it are estimated.
 * Estimates are multiplied by `scale`, the provider's tokens per estimated token (see `countRatio`).
 */
export function estimateNextRequest(
  messages: readonly LlmMessage[],
  fixedTokens: number,
  counted?: CountedRequest,
  scale = 1,
): number {
  if (counted && isPrefix(counted.messages, messages)) {
    const estimated =
      fixedTokens - counted.fixedTokens + estimateMessagesTokens(messages, counted.messages.length);
    return promptTokens(counted.usage) + Math.ceil(estimated * scale);
  }
  return Math.ceil((fixedTokens + estimateMessagesTokens(messages)) * scale);
}

/**
 * The provider's tokens per estimated token, from a counted request: tokenx follows o200k, and
 * other tokenizers (Claude's, say) count the same code as more tokens. Bounded to [0.5, 2] so a
 * wrong usage report cannot make the estimates absurd; 1 when the count is missing.
 */
export function countRatio(counted: CountedRequest): number {
  const counts = promptTokens(counted.usage);
  const estimate = counted.fixedTokens + estimateMessagesTokens(counted.messages);
  if (counts <= 0 || estimate <= 0) return 1;
  return Math.min(2, Math.max(0.5, counts / estimate));
}

function isPrefix(prefix: readonly LlmMessage[], messages: readonly LlmMessage[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== messages[i]) return false;
  return true;
}

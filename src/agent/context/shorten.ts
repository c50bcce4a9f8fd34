/**
 * Shortening tool outputs, the first fallback when a request would not fit: each long output
 * keeps its head and tail and says how much was cut. Deterministic, so the same history always
 * shortens to the same messages.
 */
import type { ContentBlock, LlmMessage, TextBlock } from "../../llm/types.js";
import { estimateMessagesTokens } from "./estimate.js";

/** A tool result in the XML protocol (see `xmlResultBlocks`): the header stays, the body is cut. */
const XML_RESULT = /^\[[\w-]+(?: for '.*')?\] (?:Result|Error):\n/;
/** Below this an output is not worth cutting. */
const MIN_OUTPUT_CHARS = 256;

const cutNote = (chars: number) =>
  `[... ${chars.toLocaleString("en-US")} characters cut here to fit the context window ...]`;

const imageRemovedNote = "[An image was removed here to fit the context window.]";

/**
 * `text` cut to about `maxChars`: 60% from the head and 40% from the tail, at line breaks when
 * one is near, with a note of how many characters were cut.
 */
export function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let head = Math.ceil(maxChars * 0.6);
  let tail = text.length - (maxChars - head);
  const lineEnd = text.lastIndexOf("\n", head);
  if (lineEnd > head / 2) head = lineEnd;
  const lineStart = text.indexOf("\n", tail);
  if (lineStart !== -1 && lineStart - tail < (text.length - tail) / 2) tail = lineStart + 1;
  return `${text.slice(0, head)}\n${cutNote(tail - head)}\n${text.slice(tail)}`;
}

const cutText = (block: TextBlock, maxChars: number): TextBlock =>
  block.text.length <= maxChars ? block : { type: "text", text: cutMiddle(block.text, maxChars) };

function shortenBlock(block: ContentBlock, maxChars: number): ContentBlock {
  if (block.type === "tool_result") {
    const content = block.content.map(
      (part): TextBlock =>
        part.type === "image" ? { type: "text", text: imageRemovedNote } : cutText(part, maxChars),
    );
    const changed = content.some((part, i) => part !== block.content[i]);
    return changed ? { ...block, content } : block;
  }
  if (block.type === "text") {
    const header = XML_RESULT.exec(block.text)?.[0];
    if (header === undefined || block.text.length - header.length <= maxChars) return block;
    return { type: "text", text: header + cutMiddle(block.text.slice(header.length), maxChars) };
  }
  return block;
}

/**
 * The messages with every tool output in `messages[from..to)` (user messages only) cut to about
 * `maxChars` and images in tool results dropped. Unchanged messages are the same objects.
 */
export function shortenToolOutputs(
  messages: readonly LlmMessage[],
  maxChars: number,
  from = 0,
  to = messages.length,
): LlmMessage[] {
  return messages.map((message, i) => {
    if (i < from || i >= to || message.role !== "user") return message;
    const content = message.content.map((block) => shortenBlock(block, maxChars));
    return content.some((block, j) => block !== message.content[j]) ? { ...message, content } : message;
  });
}

/** The longest tool output in `messages[from..to)`, in characters. */
function longestOutput(messages: readonly LlmMessage[], from: number, to: number): number {
  let longest = 0;
  for (let i = from; i < to; i++) {
    for (const block of messages[i]!.content) {
      if (block.type === "tool_result") {
        for (const part of block.content)
          if (part.type === "text") longest = Math.max(longest, part.text.length);
      } else if (block.type === "text" && XML_RESULT.test(block.text)) {
        longest = Math.max(longest, block.text.length);
      }
    }
  }
  return longest;
}

export interface FitResult {
  messages: LlmMessage[];
  tokens: number;
  fits: boolean;
}

/**
 * Shortens tool outputs in `messages[from..to)` until `fixedTokens` plus the messages fit in
 * `limit` tokens: the cap on an output's length halves until they fit or it reaches
 * `MIN_OUTPUT_CHARS`, so the longest outputs are cut first and short ones are left whole.
 */
export function fitToolOutputs(
  messages: readonly LlmMessage[],
  limit: number,
  fixedTokens: number,
  from = 0,
  to = messages.length,
): FitResult {
  let tokens = fixedTokens + estimateMessagesTokens(messages);
  if (tokens <= limit) return { messages: messages.slice(), tokens, fits: true };
  let shortened: LlmMessage[];
  // The first cap is at least MIN_OUTPUT_CHARS, so images go even when every text is short.
  let cap = Math.max(longestOutput(messages, from, to), 2 * MIN_OUTPUT_CHARS);
  do {
    cap = Math.max(MIN_OUTPUT_CHARS, Math.floor(cap / 2));
    shortened = shortenToolOutputs(messages, cap, from, to);
    tokens = fixedTokens + estimateMessagesTokens(shortened);
    if (tokens <= limit) return { messages: shortened, tokens, fits: true };
  } while (cap > MIN_OUTPUT_CHARS);
  return { messages: shortened, tokens, fits: false };
}

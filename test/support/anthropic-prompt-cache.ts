/**
 * Counts cached input the way Anthropic's prompt caching does, from the `cache_control`
 * breakpoints a request carries, so tests and benchmarks can measure what a real server would
 * bill:
 * - the prompt is the sequence tools → system → messages, cut into content blocks;
 * - a breakpoint caches the prefix that ends at its block (written on a miss);
 * - a request reads from the cache the longest prefix written before that ends at a breakpoint
 *   or at one of the 20 block boundaries before a breakpoint (the automatic lookback);
 * - prefixes shorter than the model's minimum (1024 tokens) are never cached;
 * - at most four breakpoints are allowed (a fifth is a 400 error on the real API).
 * Tokens are estimated as characters / 4 of each block's JSON.
 */
import { createHash } from "node:crypto";

export const LOOKBACK_BLOCKS = 20;
export const MIN_CACHEABLE_TOKENS = 1024;
export const MAX_BREAKPOINTS = 4;

export interface PromptCacheUsage {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

type Block = { tokens: number; breakpoint: boolean; text: string };

function withoutCacheControl(block: any): unknown {
  if (block === null || typeof block !== "object") return block;
  const { cache_control: _, ...rest } = block;
  return rest;
}

function toBlock(value: any): Block {
  const text = JSON.stringify(withoutCacheControl(value));
  return { text, tokens: Math.max(1, Math.ceil(text.length / 4)), breakpoint: value?.cache_control != null };
}

/** The request's prompt as blocks, in the order Anthropic caches them. */
function promptBlocks(body: any): Block[] {
  const blocks: Block[] = [];
  for (const tool of body.tools ?? []) blocks.push(toBlock(tool));
  const system =
    typeof body.system === "string" ? [{ type: "text", text: body.system }] : (body.system ?? []);
  for (const block of system) blocks.push(toBlock(block));
  for (const message of body.messages ?? []) {
    const content =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    // The role is part of what is cached: the same text from the other side is another prompt.
    blocks.push({ text: `role:${message.role}`, tokens: 1, breakpoint: false });
    for (const block of content) blocks.push(toBlock(block));
  }
  return blocks;
}

export class AnthropicPromptCache {
  private readonly written = new Set<string>();

  /** Counts one request's input and records the prefixes it wrote. Throws on too many breakpoints. */
  account(body: any): PromptCacheUsage {
    const blocks = promptBlocks(body);
    const model = String(body.model ?? "");
    const hashes: string[] = [];
    const cumulative: number[] = [];
    let hash = createHash("sha256").update(model).digest("hex");
    let total = 0;
    for (const block of blocks) {
      hash = createHash("sha256").update(hash).update(block.text).digest("hex");
      total += block.tokens;
      hashes.push(hash);
      cumulative.push(total);
    }
    const breakpoints = blocks.flatMap((block, i) => (block.breakpoint ? [i] : []));
    if (breakpoints.length > MAX_BREAKPOINTS) {
      throw new Error(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided.`);
    }
    // The longest prefix already cached, found from any breakpoint's lookback window.
    let readEnd = -1;
    for (const point of breakpoints) {
      for (let i = point; i >= Math.max(0, point - LOOKBACK_BLOCKS); i--) {
        if (this.written.has(hashes[i]!)) {
          readEnd = Math.max(readEnd, i);
          break;
        }
      }
    }
    let writeEnd = readEnd;
    for (const point of breakpoints) {
      if (point <= readEnd || cumulative[point]! < MIN_CACHEABLE_TOKENS) continue;
      this.written.add(hashes[point]!);
      writeEnd = Math.max(writeEnd, point);
    }
    const read = readEnd >= 0 ? cumulative[readEnd]! : 0;
    const upToWrite = writeEnd >= 0 ? cumulative[writeEnd]! : 0;
    return { cacheReadTokens: read, cacheWriteTokens: upToWrite - read, inputTokens: total - upToWrite };
  }
}

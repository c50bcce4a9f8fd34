/**
 * Duplicate file reads: when the same content of a file (same path, same line range, same
 * content) was read several times, every copy but the latest is replaced by a short note. The
 * history is never edited: the messages that change are copied, and each copy is made once and
 * reused, so the request stays byte-identical from one turn to the next (and cacheable).
 */
import { createHash } from "node:crypto";
import type { ContentBlock, LlmMessage, ToolCallBlock, ToolResultBlock } from "../../llm/types.js";

export const DEFAULT_READ_TOOLS: readonly string[] = ["read_file"];

/** Results shorter than this are left alone: the note would save next to nothing. */
const MIN_CHARS = 300;

/** One file read in a user message: the block that holds it and what identifies its content. */
interface ReadRef {
  block: number;
  key: string;
  /** The path (and range) as the note names it. */
  label: string;
  xml: boolean;
}

export interface DedupeResult {
  history: LlmMessage[];
  /** How many older copies were replaced by a note. */
  replaced: number;
}

/** The XML protocol's result header (see `xmlResultBlocks`): `[read_file for 'src/a.ts'] Result:`. */
const XML_RESULT = /^\[([\w-]+) for '(.*)'\] Result:\n/;

export const duplicateReadNote = (label: string): string =>
  `[Older copy of ${label} removed: the same content was read again later in this conversation. Use the later result.]`;

/**
 * Creates a deduplicator for results of `readTools` (tools taking `path` and optional
 * `start_line`/`end_line`). It remembers, per message, the reads it found and the copies it made,
 * so a pass over a long history only looks at the messages it has not seen.
 */
export function createReadDeduplicator(readTools: readonly string[] = DEFAULT_READ_TOOLS) {
  const tools = new Set(readTools);
  const callsByMessage = new WeakMap<LlmMessage, Map<string, ToolCallBlock>>();
  const refsByMessage = new WeakMap<LlmMessage, ReadRef[]>();
  const copies = new WeakMap<LlmMessage, { blocks: string; copy: LlmMessage }>();

  const callsOf = (message: LlmMessage | undefined): Map<string, ToolCallBlock> => {
    if (message === undefined || message.role !== "assistant") return new Map();
    let calls = callsByMessage.get(message);
    if (calls === undefined) {
      calls = new Map();
      for (const block of message.content) if (block.type === "tool_call") calls.set(block.id, block);
      callsByMessage.set(message, calls);
    }
    return calls;
  };

  const refsOf = (message: LlmMessage, previous: LlmMessage | undefined): ReadRef[] => {
    let refs = refsByMessage.get(message);
    if (refs === undefined) {
      refs = message.role === "user" ? findReads(message, callsOf(previous), tools) : [];
      refsByMessage.set(message, refs);
    }
    return refs;
  };

  const copyOf = (message: LlmMessage, stale: ReadRef[]): LlmMessage => {
    const blocks = stale.map((ref) => ref.block).join(",");
    const cached = copies.get(message);
    if (cached?.blocks === blocks) return cached.copy;
    const content = [...message.content];
    for (const ref of stale) content[ref.block] = noteBlock(content[ref.block]!, ref);
    const copy = { ...message, content };
    copies.set(message, { blocks, copy });
    return copy;
  };

  /**
   * The history with superseded reads replaced. Only reads in `history[0..upTo)` take part, so a
   * caller can hold the set of replacements still until it chooses to look again.
   */
  return function deduplicate(history: readonly LlmMessage[], upTo = history.length): DedupeResult {
    const end = Math.min(upTo, history.length);
    const latest = new Map<string, ReadRef>();
    for (let i = 0; i < end; i++) {
      for (const ref of refsOf(history[i]!, history[i - 1])) latest.set(ref.key, ref);
    }
    let replaced = 0;
    const result = history.slice();
    for (let i = 0; i < end; i++) {
      const refs = refsOf(history[i]!, history[i - 1]);
      if (refs.length === 0) continue;
      const stale = refs.filter((ref) => latest.get(ref.key) !== ref);
      if (stale.length === 0) continue;
      result[i] = copyOf(history[i]!, stale);
      replaced += stale.length;
    }
    return { history: result, replaced };
  };
}

export type ReadDeduplicator = ReturnType<typeof createReadDeduplicator>;

function findReads(message: LlmMessage, calls: Map<string, ToolCallBlock>, tools: Set<string>): ReadRef[] {
  const refs: ReadRef[] = [];
  message.content.forEach((block, index) => {
    if (block.type === "tool_result") {
      const call = calls.get(block.callId);
      if (call && tools.has(call.name) && !block.isError && worthReplacing(block.content)) {
        refs.push(nativeRef(index, call, block));
      }
    } else if (block.type === "text") {
      const header = XML_RESULT.exec(block.text);
      if (header && tools.has(header[1]!) && block.text.length - header[0].length >= MIN_CHARS) {
        const path = header[2]!;
        // The numbered lines of the body say which range was read.
        refs.push({ block: index, key: keyOf(path, "", [block.text]), label: path, xml: true });
      }
    }
  });
  return refs;
}

function nativeRef(block: number, call: ToolCallBlock, result: ToolResultBlock): ReadRef {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const path = typeof input.path === "string" ? input.path : "";
  const start = typeof input.start_line === "number" ? input.start_line : undefined;
  const end = typeof input.end_line === "number" ? input.end_line : undefined;
  const range = start === undefined && end === undefined ? "" : `${start ?? 1}-${end ?? ""}`;
  const parts = result.content.map((part) => (part.type === "text" ? `t${part.text}` : `i${part.data}`));
  const label = range ? `${path} (lines ${range.endsWith("-") ? `${range}end` : range})` : path;
  return { block, key: keyOf(path, range, parts), label, xml: false };
}

function worthReplacing(content: ToolResultBlock["content"]): boolean {
  let chars = 0;
  for (const part of content) {
    if (part.type === "image") return true;
    chars += part.text.length;
  }
  return chars >= MIN_CHARS;
}

function keyOf(path: string, range: string, parts: string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return `${path}\0${range}\0${hash.digest("base64")}`;
}

function noteBlock(block: ContentBlock, ref: ReadRef): ContentBlock {
  const note = duplicateReadNote(ref.label);
  if (block.type === "tool_result") return { ...block, content: [{ type: "text", text: note }] };
  const header = ref.xml && block.type === "text" ? XML_RESULT.exec(block.text)?.[0] : undefined;
  return { type: "text", text: `${header ?? ""}${note}` };
}

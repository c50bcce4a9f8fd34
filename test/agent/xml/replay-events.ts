import type { XmlBlock, XmlParseEvent, XmlToolParserOptions } from "../../../src/agent/xml/index.js";
import { createXmlToolParser } from "../../../src/agent/xml/index.js";

type ToolBlock = Extract<XmlBlock, { type: "tool" }>;

/** Rebuilds blocks from parser events, as a host's UI would; throws on an inconsistent stream. */
export function replayEvents(events: readonly XmlParseEvent[]): XmlBlock[] {
  const blocks: XmlBlock[] = [];
  const tool = (index: number): ToolBlock => {
    const block = blocks[index];
    if (block?.type !== "tool") throw new Error(`event for block ${index}, which is not a tool`);
    return block;
  };
  for (const event of events) {
    switch (event.type) {
      case "text_delta": {
        if (event.index === blocks.length) blocks.push({ type: "text", text: "", partial: true });
        const block = blocks[event.index];
        if (block?.type !== "text" || !block.partial) throw new Error(`text_delta for block ${event.index}`);
        block.text += event.text;
        break;
      }
      case "text_end": {
        const block = blocks[event.index];
        if (block?.type !== "text") throw new Error(`text_end for block ${event.index}`);
        block.partial = false;
        break;
      }
      case "tool_start":
        if (event.index !== blocks.length) throw new Error(`tool_start at ${event.index}`);
        blocks.push({ type: "tool", name: event.name, params: {}, partial: true });
        break;
      case "param_start": {
        const block = tool(event.index);
        block.params[event.param] = "";
        block.openParam = event.param;
        break;
      }
      case "param_delta": {
        const block = tool(event.index);
        if (block.openParam !== event.param) throw new Error(`param_delta for ${event.param}, not open`);
        block.params[event.param] += event.text;
        break;
      }
      case "param_end": {
        const block = tool(event.index);
        if (block.params[event.param] !== event.value) throw new Error(`param_end value of ${event.param}`);
        delete block.openParam;
        break;
      }
      case "tool_end": {
        const block = tool(event.index);
        block.partial = false;
        if (JSON.stringify(block.params) !== JSON.stringify(event.params))
          throw new Error(`tool_end params of block ${event.index}`);
        break;
      }
    }
  }
  return blocks;
}

export interface ChunkedRun {
  blocks: XmlBlock[];
  events: XmlParseEvent[];
  charsPushed: number;
  charsExamined: number;
}

/** Feeds `chunks` to a new parser, then ends it. */
export function parseChunks(chunks: readonly string[], options: XmlToolParserOptions): ChunkedRun {
  const parser = createXmlToolParser(options);
  const events: XmlParseEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  events.push(...parser.end());
  return { blocks: parser.blocks(), events, ...parser.stats() };
}

/** Cuts `text` at the given positions (any order, duplicates and out-of-range ones ignored). */
export function cutAt(text: string, positions: readonly number[]): string[] {
  const cuts = [...new Set(positions.filter((p) => p > 0 && p < text.length))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    chunks.push(text.slice(start, cut));
    start = cut;
  }
  return chunks;
}

export const TOOLS: ReadonlyMap<string, readonly string[]> = new Map([
  ["read_file", ["path", "start_line", "end_line"]],
  ["write_to_file", ["path", "content"]],
  ["replace_in_file", ["path", "diff"]],
  ["execute_command", ["command", "requires_approval"]],
  ["attempt_completion", ["result", "command"]],
]);

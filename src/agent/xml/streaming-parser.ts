import { createTextAccumulator, type TextAccumulator } from "./text-accumulator.js";
import {
  createTextTrimmer,
  createValueTrimmer,
  isBlank,
  type StreamTrimmer,
  type WorkCounter,
} from "./trimmers.js";
import type { XmlBlock, XmlParseEvent, XmlToolParser, XmlToolParserOptions } from "./types.js";
import {
  afterLessThan,
  createXmlGrammar,
  type ParamGrammar,
  type TagMatch,
  type TagTrieNode,
  type ToolGrammar,
} from "./xml-grammar.js";

/*
 * One pass, four modes:
 * - text: plain text; only `<tool>` of a known tool is a tag.
 * - tool: between parameters; `<param>` of this tool's parameters and `</tool>`. Anything
 *   else there (whitespace, stray text, unknown tags) is ignored.
 * - value: inside a parameter; only `</param>` is a tag, everything else is the value.
 * - after-close: a greedy parameter saw `</param>`, which is tentative. Text after it is
 *   held until one of these settles it:
 *     `</tool>`: the tentative close was the last one; the value ends there, the held text is
 *       dropped (as text between parameters is) and the tool call is complete;
 *     `<other_param>` with only whitespace held: the value ends there, the other opens;
 *     another `</param>`: the earlier close and the held text were part of the value;
 *   any other text, or a parameter opening after visible held text, is held as well.
 *   So a greedy value runs to the last `</param>` before `</tool>`, and may contain its own
 *   opening and closing tags.
 * A `<` starts a pending tag walked through the mode's trie; at the first character that
 * leaves the trie, the pending text is literal, and that character is scanned afresh (it
 * may itself be a `<`). Each character is thus inspected at most twice by the scanner.
 */

/** Blocks as they are built; `blocks()` turns them into `XmlBlock` snapshots. */
interface TextBlock {
  type: "text";
  text: TextAccumulator;
  partial: boolean;
}
interface ToolBlock {
  type: "tool";
  name: string;
  /** In the order the parameters first opened; a repeated one starts over in place. */
  params: Map<string, TextAccumulator>;
  partial: boolean;
  openParam?: string;
}
type Block = TextBlock | ToolBlock;

const paramValues = (block: ToolBlock): Record<string, string> =>
  Object.fromEntries([...block.params].map(([name, value]) => [name, value.value()]));

function snapshot(block: Block): XmlBlock {
  if (block.type === "text") return { type: "text", text: block.text.value(), partial: block.partial };
  const { name, partial, openParam } = block;
  const params = paramValues(block);
  return openParam === undefined
    ? { type: "tool", name, params, partial }
    : { type: "tool", name, params, partial, openParam };
}

interface TextMode {
  kind: "text";
  trimmer: StreamTrimmer;
  /** Opened at the first visible character. */
  block?: TextBlock;
  index: number;
}
interface ToolMode {
  kind: "tool";
  tool: ToolGrammar;
  block: ToolBlock;
  index: number;
}
interface ValueMode {
  kind: "value";
  tool: ToolGrammar;
  block: ToolBlock;
  index: number;
  param: ParamGrammar;
  trimmer: StreamTrimmer;
}
interface AfterCloseMode extends Omit<ValueMode, "kind"> {
  kind: "after-close";
  /** The tentative closing tag, as written. */
  closeTag: string;
  /** Text since the tentative close; not shown until settled. */
  held: TextAccumulator;
  heldBlank: boolean;
}
type Mode = TextMode | ToolMode | ValueMode | AfterCloseMode;

export function createXmlToolParser(options: XmlToolParserOptions): XmlToolParser {
  const grammar = createXmlGrammar(options);
  const counter: WorkCounter = { examined: 0 };
  const blocks: Block[] = [];
  let events: XmlParseEvent[] = [];
  let pushed = 0;
  let ended = false;
  let mode: Mode = textMode(false);
  /** Trie node reached by `pendingText`, a possible tag cut at a chunk's end; undefined when none. */
  let pending: TagTrieNode | undefined;
  let pendingText = "";

  function textMode(afterTool: boolean): TextMode {
    return { kind: "text", trimmer: createTextTrimmer(afterTool, counter), index: -1 };
  }

  function appendText(m: TextMode, text: string): void {
    if (text === "") return;
    if (!m.block) {
      m.block = { type: "text", text: createTextAccumulator(), partial: true };
      m.index = blocks.length;
      blocks.push(m.block);
    }
    m.block.text.append(text);
    const last = events[events.length - 1];
    if (last?.type === "text_delta" && last.index === m.index) last.text += text;
    else events.push({ type: "text_delta", index: m.index, text });
  }

  function appendValue(m: ValueMode | AfterCloseMode, text: string): void {
    if (text === "") return;
    const param = m.param.name;
    m.block.params.get(param)!.append(text);
    const last = events[events.length - 1];
    if (last?.type === "param_delta" && last.index === m.index && last.param === param) last.text += text;
    else events.push({ type: "param_delta", index: m.index, param, text });
  }

  function endText(m: TextMode, beforeTool: boolean): void {
    appendText(m, m.trimmer.finish(beforeTool));
    if (!m.block) return;
    m.block.partial = false;
    events.push({ type: "text_end", index: m.index });
  }

  function openTool(name: string): void {
    const tool = grammar.tools.get(name)!;
    const block: ToolBlock = { type: "tool", name, params: new Map(), partial: true };
    const index = blocks.length;
    blocks.push(block);
    events.push({ type: "tool_start", index, name });
    mode = { kind: "tool", tool, block, index };
  }

  function openParam(m: ToolMode | AfterCloseMode, name: string): void {
    const param = m.tool.params.get(name)!;
    m.block.params.set(name, createTextAccumulator());
    m.block.openParam = name;
    events.push({ type: "param_start", index: m.index, param: name });
    const trimmer = createValueTrimmer(counter);
    mode = { kind: "value", tool: m.tool, block: m.block, index: m.index, param, trimmer };
  }

  function closeParam(m: ValueMode | AfterCloseMode): void {
    appendValue(m, m.trimmer.finish(true));
    delete m.block.openParam;
    const param = m.param.name;
    const value = m.block.params.get(param)!.value();
    events.push({ type: "param_end", index: m.index, param, value });
    mode = { kind: "tool", tool: m.tool, block: m.block, index: m.index };
  }

  function closeTool(m: ToolMode | AfterCloseMode): void {
    m.block.partial = false;
    events.push({ type: "tool_end", index: m.index, name: m.block.name, params: paramValues(m.block) });
    mode = textMode(true);
  }

  function hold(m: AfterCloseMode, text: string): void {
    m.held.append(text);
    if (!m.heldBlank) return;
    for (let i = 0; i < text.length; i++) {
      counter.examined++;
      if (!isBlank(text.charCodeAt(i))) {
        m.heldBlank = false;
        return;
      }
    }
  }

  function literal(text: string): void {
    const m = mode;
    if (m.kind === "text") appendText(m, m.trimmer.push(text));
    else if (m.kind === "value") appendValue(m, m.trimmer.push(text));
    else if (m.kind === "after-close") hold(m, text);
    // tool mode: text between parameters is ignored.
  }

  function onTag(match: TagMatch, tag: string): void {
    const m = mode;
    if (m.kind === "text") {
      if (match.kind !== "tool-open") return;
      endText(m, true);
      openTool(match.name);
    } else if (m.kind === "tool") {
      if (match.kind === "param-open") openParam(m, match.name);
      else if (match.kind === "tool-close") closeTool(m);
    } else if (m.kind === "value") {
      if (!m.param.greedy) closeParam(m);
      else
        mode = { ...m, kind: "after-close", closeTag: tag, held: createTextAccumulator(), heldBlank: true };
    } else if (match.kind === "param-close") {
      // The earlier close was part of the value after all.
      appendValue(m, m.trimmer.push(m.closeTag + m.held.value()));
      m.closeTag = tag;
      m.held = createTextAccumulator();
      m.heldBlank = true;
    } else if (match.kind === "tool-close") {
      closeParam(m);
      closeTool(m);
    } else if (match.kind === "param-open" && m.heldBlank) {
      closeParam(m);
      openParam(m, match.name);
    } else {
      hold(m, tag);
    }
  }

  /** The trie of tags possible in the current mode, after its `<`. */
  function tagRoot(): TagTrieNode | undefined {
    const m = mode;
    if (m.kind === "text") return afterLessThan(grammar.text);
    if (m.kind === "tool") return afterLessThan(m.tool.body);
    return afterLessThan(m.kind === "value" ? m.param.inValue : m.param.afterClose);
  }

  function scan(chunk: string): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (pending) {
        counter.examined++;
        const next = pending.next.get(chunk.charCodeAt(i));
        if (next) {
          pendingText += chunk[i];
          i++;
          if (next.match) {
            const tag = pendingText;
            pending = undefined;
            pendingText = "";
            onTag(next.match, tag);
          } else {
            pending = next;
          }
          continue;
        }
        // Not a tag after all: literal text; the current character is scanned again below.
        const text = pendingText;
        pending = undefined;
        pendingText = "";
        literal(text);
        continue;
      }
      const lt = chunk.indexOf("<", i);
      const stop = lt < 0 ? n : lt;
      counter.examined += stop - i + (lt < 0 ? 0 : 1);
      if (stop > i) literal(chunk.slice(i, stop));
      if (lt < 0) return;
      i = lt + 1;
      const root = tagRoot();
      if (root) {
        pending = root;
        pendingText = "<";
      } else {
        literal("<");
      }
    }
  }

  return {
    push(chunk) {
      if (ended) throw new Error("XmlToolParser.push called after end()");
      events = [];
      pushed += chunk.length;
      scan(chunk);
      return events;
    },
    end() {
      if (ended) throw new Error("XmlToolParser.end called twice");
      ended = true;
      events = [];
      if (pending) {
        const text = pendingText;
        pending = undefined;
        pendingText = "";
        literal(text);
      }
      const m = mode;
      if (m.kind === "text") endText(m, false);
      else if (m.kind === "value") appendValue(m, m.trimmer.finish(true));
      else if (m.kind === "after-close") closeParam(m);
      // An open tool (and an open parameter) stays partial.
      return events;
    },
    blocks: () => blocks.map(snapshot),
    stats: () => ({ charsPushed: pushed, charsExamined: counter.examined }),
  };
}

/** Parses a whole message at once; the same result as pushing it in any chunks, then `end()`. */
export function parseXmlToolMessage(text: string, options: XmlToolParserOptions): XmlBlock[] {
  const parser = createXmlToolParser(options);
  parser.push(text);
  parser.end();
  return parser.blocks();
}

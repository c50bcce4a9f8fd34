import { createTextTrimmer, type WorkCounter } from "./trimmers.js";
import type { XmlBlock, XmlToolParserOptions } from "./types.js";
import { DEFAULT_GREEDY_PARAMS } from "./xml-grammar.js";

/**
 * A deliberately naive baseline, for the benchmark only: it re-parses the whole message
 * after every chunk, testing every possible tag at every character, as Cline's parser does.
 * O(L x K) per chunk and O(L^2) per message. Greedy parameters are repaired only when the
 * tool closes (value from the first `<param>` to the last `</param>` in the tool body).
 * On messages whose values contain none of their tool's tags it agrees with
 * `parseXmlToolMessage`.
 */
export function parseXmlToolMessageNaive(
  chunks: Iterable<string>,
  options: XmlToolParserOptions,
): XmlBlock[] {
  let text = "";
  for (const chunk of chunks) {
    text += chunk;
    parseWhole(text, options, false);
  }
  return parseWhole(text, options, true);
}

const endsAt = (text: string, tag: string, i: number) =>
  i + 1 >= tag.length && text.startsWith(tag, i + 1 - tag.length);

function stripNewlines(value: string): string {
  let v = value;
  if (v.startsWith("\r\n")) v = v.slice(2);
  else if (v.startsWith("\n")) v = v.slice(1);
  if (v.endsWith("\r\n")) v = v.slice(0, -2);
  else if (v.endsWith("\n")) v = v.slice(0, -1);
  return v;
}

interface NaiveTool {
  name: string;
  open: string;
  close: string;
  params: Array<{ name: string; open: string; close: string }>;
  greedy: readonly string[];
}

/** The tag strings, rebuilt on every parse as Cline rebuilds its tag map. */
function naiveTools(options: XmlToolParserOptions): NaiveTool[] {
  const greedy = options.greedyParams ?? DEFAULT_GREEDY_PARAMS;
  return [...options.tools].map(([name, params]) => ({
    name,
    open: `<${name}>`,
    close: `</${name}>`,
    params: params.map((p) => ({ name: p, open: `<${p}>`, close: `</${p}>` })),
    greedy: greedy.get(name) ?? [],
  }));
}

function parseWhole(text: string, options: XmlToolParserOptions, ended: boolean): XmlBlock[] {
  const tools = naiveTools(options);
  const counter: WorkCounter = { examined: 0 };
  const blocks: XmlBlock[] = [];
  let afterTool = false;
  const pushText = (slice: string, beforeTool: boolean) => {
    const trimmer = createTextTrimmer(afterTool, counter);
    const out = trimmer.push(slice) + trimmer.finish(beforeTool);
    if (out !== "") blocks.push({ type: "text", text: out, partial: !beforeTool && !ended });
  };
  let current: NaiveTool | undefined;
  let block: Extract<XmlBlock, { type: "tool" }> | undefined;
  let bodyStart = 0;
  let param: NaiveTool["params"][number] | undefined;
  let valueStart = 0;
  let textStart = 0;
  for (let i = 0; i < text.length; i++) {
    if (!current || !block) {
      const found = tools.find((t) => endsAt(text, t.open, i));
      if (!found) continue;
      pushText(text.slice(textStart, i + 1 - found.open.length), true);
      current = found;
      block = { type: "tool", name: found.name, params: {}, partial: true };
      blocks.push(block);
      bodyStart = i + 1;
    } else if (!param) {
      param = current.params.find((p) => endsAt(text, p.open, i));
      if (param) {
        valueStart = i + 1;
        continue;
      }
      if (!endsAt(text, current.close, i)) continue;
      const body = text.slice(bodyStart, i + 1 - current.close.length);
      for (const p of current.greedy) {
        const first = body.indexOf(`<${p}>`);
        const last = body.lastIndexOf(`</${p}>`);
        if (first >= 0 && last > first)
          block.params[p] = stripNewlines(body.slice(first + p.length + 2, last));
      }
      block.partial = false;
      current = undefined;
      block = undefined;
      afterTool = true;
      textStart = i + 1;
    } else if (endsAt(text, param.close, i)) {
      block.params[param.name] = stripNewlines(text.slice(valueStart, i + 1 - param.close.length));
      param = undefined;
    }
  }
  if (!block) pushText(text.slice(textStart), false);
  else if (param) {
    block.params[param.name] = stripNewlines(text.slice(valueStart));
    block.openParam = param.name;
  }
  return blocks;
}

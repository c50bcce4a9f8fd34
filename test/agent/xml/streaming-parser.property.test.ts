import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseXmlToolMessage, type XmlBlock } from "../../../src/agent/xml/index.js";
import { parseXmlToolMessageNaive } from "../../../src/agent/xml/naive-parser.js";
import { createXmlToolParser } from "../../../src/agent/xml/streaming-parser.js";
import { cutAt, parseChunks, replayEvents, TOOLS } from "./replay-events.js";

const OPTIONS = { tools: TOOLS };
const GREEDY = new Map([
  ["write_to_file", ["content"]],
  ["replace_in_file", ["diff"]],
]);

const NAMES = [...new Set([...TOOLS.keys(), ...[...TOOLS.values()].flat()])];
/** Pieces of text: prose, whitespace, angle brackets, and whole, partial and bare tag names. */
const FRAGMENTS = [
  "a",
  "bc",
  "word",
  "é",
  " ",
  "  ",
  "\n",
  "\r\n",
  "\t",
  "<",
  ">",
  "/",
  "</",
  "<<",
  "=>",
  '"',
  "<div>",
  "</div>",
  "<b/>",
  ...NAMES.flatMap((name) => [
    `<${name}>`,
    `</${name}>`,
    `<${name.slice(0, 3)}`,
    `</${name.slice(0, 4)}`,
    name,
  ]),
];
const fragments = (maxLength: number) =>
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength }).map((parts) => parts.join(""));

/** Whitespace between tags; each ends with a line break so it is dropped next to a tool. */
const separator = fc.constantFrom("", "\n", "\n\n", "\r\n", "\n \t\n", "\r\n\r\n");

interface Call {
  name: string;
  params: Array<[param: string, value: string]>;
}
type Segment = { kind: "text"; text: string } | ({ kind: "tool" } & Call);

const isAsciiBlank = (ch: string) => /[ \t\n\r\v\f]/.test(ch);

/** True when `value` parses back as itself inside `<param>` of `tool`. */
function valueFits(tool: string, param: string, value: string): boolean {
  if (!GREEDY.get(tool)?.includes(param)) return !value.includes(`</${param}>`);
  if (value.includes(`</${tool}>`)) return false;
  const others = TOOLS.get(tool)!.filter((p) => p !== param);
  return !others.some((other) => new RegExp(`</${param}>[ \\t\\n\\r\\v\\f]*<${other}>`).test(value));
}

const call = (value: (tool: string, param: string) => fc.Arbitrary<string>): fc.Arbitrary<Call> =>
  fc.constantFrom(...TOOLS.keys()).chain((name) =>
    fc
      .shuffledSubarray([...TOOLS.get(name)!])
      .chain((params) =>
        fc.tuple(...params.map((param) => value(name, param).map((v): [string, string] => [param, v]))),
      )
      .map((params) => ({ name, params })),
  );

/** Values that parse back; greedy ones often hold their own opening and closing tags. */
const fittingValue = (tool: string, param: string) => {
  const own = fc.constantFrom(`</${param}>`, `<${param}>`, `</${param}>\n`);
  const piece = GREEDY.get(tool)?.includes(param)
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: own })
    : fc.constantFrom(...FRAGMENTS);
  return fc
    .array(piece, { maxLength: 30 })
    .map((parts) => parts.join(""))
    .filter((value) => valueFits(tool, param, value));
};

/** A value that contains none of its tool's tags, so even Cline's rules parse it back. */
const plainValue = (tool: string) =>
  fragments(30).filter(
    (value) =>
      !value.includes(`</${tool}>`) &&
      TOOLS.get(tool)!.every((p) => !value.includes(`<${p}>`) && !value.includes(`</${p}>`)),
  );

/** Visible text without tool tags, starting and ending with a visible character. */
const textCore = fragments(30).filter(
  (text) =>
    text !== "" &&
    !isAsciiBlank(text[0]!) &&
    !isAsciiBlank(text[text.length - 1]!) &&
    ![...TOOLS.keys()].some((name) => text.includes(`<${name}>`)),
);

/** Writes a call, choosing how values are wrapped and what whitespace goes between tags. */
const writeCall = (c: Call): fc.Arbitrary<string> =>
  fc
    .tuple(
      separator,
      separator,
      fc.array(fc.tuple(separator, fc.constantFrom("", "\n", "\r\n")), {
        minLength: c.params.length,
        maxLength: c.params.length,
      }),
    )
    .map(([open, close, layout]) => {
      const params = c.params.map(([param, value], i) => {
        const [sep, wrap0] = layout[i]!;
        // A value that itself starts or ends with a newline needs the wrapping newlines.
        const wrap = wrap0 === "" && (/^\r?\n/.test(value) || value.endsWith("\n")) ? "\n" : wrap0;
        return `${i === 0 ? "" : sep}<${param}>${wrap}${value}${wrap}</${param}>`;
      });
      return `<${c.name}>${open}${params.join("")}${close}</${c.name}>`;
    });

/** A message written from known segments, and the blocks it must parse to. */
function structuredMessage(value: (tool: string, param: string) => fc.Arbitrary<string>) {
  const segment: fc.Arbitrary<Segment> = fc.oneof(
    textCore.map((text) => ({ kind: "text" as const, text })),
    call(value).map((c) => ({ kind: "tool" as const, ...c })),
  );
  return fc
    .array(segment, { maxLength: 6 })
    .map(mergeTexts)
    .chain((segments) =>
      fc
        .tuple(
          ...segments.map((s) => (s.kind === "text" ? fc.constant(s.text) : writeCall(s))),
          fc.array(separator, { minLength: segments.length + 1, maxLength: segments.length + 1 }),
        )
        .map((parts) => {
          const seps = parts.pop() as string[];
          const written = parts as string[];
          let message = segments[0]?.kind === "tool" ? seps[0]! : "";
          written.forEach((part, i) => {
            message += (i === 0 ? "" : seps[i]) + part;
          });
          const last = segments[segments.length - 1];
          const trailing = last?.kind === "tool" ? seps[segments.length]! : "";
          return { message: message + trailing, expected: segments.map(toBlock) };
        }),
    );
}

function mergeTexts(segments: Segment[]): Segment[] {
  const merged: Segment[] = [];
  for (const s of segments) {
    const prev = merged[merged.length - 1];
    if (s.kind === "text" && prev?.kind === "text") prev.text += ` ${s.text}`;
    else merged.push({ ...s });
  }
  return merged;
}

const toBlock = (s: Segment): XmlBlock =>
  s.kind === "text"
    ? { type: "text", text: s.text, partial: false }
    : { type: "tool", name: s.name, params: Object.fromEntries(s.params), partial: false };

/** Random chunkings of a text: 1-character chunks, or cuts at random positions. */
const chunking = fc.oneof(
  fc.constant<"chars">("chars"),
  fc.array(fc.nat({ max: 100_000 }), { maxLength: 40 }),
);
const chunk = (text: string, how: "chars" | number[]) =>
  how === "chars"
    ? [...text]
    : cutAt(
        text,
        how.map((p) => p % (text.length + 1)),
      );

/** Messages of every kind: random fragments mixed with well-formed calls, and cut-off ones. */
const anyMessage = fc.oneof(
  fc
    .array(fc.oneof(fragments(20), call(() => fragments(15)).chain(writeCall)), { maxLength: 8 })
    .map((parts) => parts.join("")),
  structuredMessage(fittingValue).chain(({ message }) =>
    fc.nat({ max: message.length }).map((end) => message.slice(0, end)),
  ),
);

describe("streaming parser properties", () => {
  it("gives the same blocks for any chunking as the one-shot parse, and events rebuild them", () => {
    fc.assert(
      fc.property(anyMessage, chunking, (message, how) => {
        const oneShot = parseXmlToolMessage(message, OPTIONS);
        const run = parseChunks(chunk(message, how), OPTIONS);
        expect(run.blocks).toEqual(oneShot);
        expect(replayEvents(run.events)).toEqual(oneShot);
        expect(run.charsExamined).toBeLessThanOrEqual(4 * message.length);
      }),
      { numRuns: 1000 },
    );
  });

  it("recovers the structure a message was written from", () => {
    fc.assert(
      fc.property(structuredMessage(fittingValue), chunking, ({ message, expected }, how) => {
        expect(parseXmlToolMessage(message, OPTIONS)).toEqual(expected);
        const run = parseChunks(chunk(message, how), OPTIONS);
        expect(run.blocks).toEqual(expected);
        expect(replayEvents(run.events)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("only ever grows what it has shown while streaming", () => {
    fc.assert(
      fc.property(structuredMessage(fittingValue), chunking, ({ message, expected }, how) => {
        const parser = createXmlToolParser(OPTIONS);
        for (const piece of chunk(message, how)) {
          parser.push(piece);
          parser.blocks().forEach((block, i) => {
            expectGrowsInto(block, expected[i]);
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with the naive re-parsing baseline when values hold no tags of their tool", () => {
    fc.assert(
      fc.property(structuredMessage(plainValue), chunking, ({ message, expected }, how) => {
        expect(parseXmlToolMessageNaive(chunk(message, how === "chars" ? [] : how), OPTIONS)).toEqual(
          expected,
        );
      }),
      { numRuns: 300 },
    );
  });
});

/** A block shown mid-stream is a prefix of its final form. */
function expectGrowsInto(shown: XmlBlock, final: XmlBlock | undefined): void {
  expect(final?.type).toBe(shown.type);
  if (shown.type === "text" && final?.type === "text") {
    expect(final.text.startsWith(shown.text)).toBe(true);
    if (!shown.partial) expect(shown).toEqual(final);
  } else if (shown.type === "tool" && final?.type === "tool") {
    expect(shown.name).toBe(final.name);
    for (const [param, value] of Object.entries(shown.params))
      expect(final.params[param]?.startsWith(value)).toBe(true);
    if (!shown.partial) expect(shown).toEqual(final);
  }
}

import { describe, expect, it } from "vitest";
import {
  createXmlToolParser,
  parseXmlToolMessage,
  type XmlBlock,
  type XmlToolParserOptions,
} from "../../../src/agent/xml/index.js";
import { cutAt, parseChunks, replayEvents, TOOLS } from "./replay-events.js";

const OPTIONS: XmlToolParserOptions = { tools: TOOLS };

const text = (value: string, partial = false): XmlBlock => ({ type: "text", text: value, partial });
const tool = (
  name: string,
  params: Record<string, string>,
  extra: { partial?: boolean; openParam?: string } = {},
): XmlBlock => ({ type: "tool", name, params, partial: extra.partial ?? false, ...extra });

/**
 * Parses `message` whole, in 1-character chunks, and cut in two at every position, and
 * checks each result (and the blocks rebuilt from its events) against `expected`.
 */
function expectParse(message: string, expected: XmlBlock[], options = OPTIONS): void {
  expect(parseXmlToolMessage(message, options)).toEqual(expected);
  const runs = [[...message], ...Array.from({ length: message.length + 1 }, (_, i) => cutAt(message, [i]))];
  for (const chunks of runs) {
    const run = parseChunks(chunks, options);
    expect(run.blocks, JSON.stringify(chunks)).toEqual(expected);
    expect(replayEvents(run.events)).toEqual(expected);
  }
}

describe("text outside tool calls", () => {
  it("keeps plain text verbatim", () => {
    expectParse("Hello, world.", [text("Hello, world.")]);
    expectParse("  indented\n\nlines\n", [text("  indented\n\nlines\n")]);
  });

  it("produces no blocks for an empty or whitespace-only message", () => {
    expectParse("", []);
    expectParse(" \n\t\r\n", []);
  });

  it("keeps unknown tags, stray closing tags and lone angle brackets as text", () => {
    expectParse("Use <div> and <read_file_x> or </read_file> and a < b > c <<>", [
      text("Use <div> and <read_file_x> or </read_file> and a < b > c <<>"),
    ]);
    expectParse("<path>not in a tool</path>", [text("<path>not in a tool</path>")]);
  });

  it("keeps a partial tag at the end of the message as text", () => {
    expectParse("Let me look <read_fi", [text("Let me look <read_fi")]);
    expectParse("tail <", [text("tail <")]);
  });
});

describe("tool calls", () => {
  it("parses a tool call alone", () => {
    expectParse("<read_file>\n<path>src/a.ts</path>\n</read_file>", [
      tool("read_file", { path: "src/a.ts" }),
    ]);
  });

  it("parses text, a tool call, and text, dropping the blank lines next to the tool", () => {
    const message =
      "I'll read it.\n<read_file>\n<path>src/a.ts</path>\n<start_line>10</start_line>\n</read_file>\n\n  Then edit.\nOK\n";
    expectParse(message, [
      text("I'll read it."),
      tool("read_file", { path: "src/a.ts", start_line: "10" }),
      text("  Then edit.\nOK\n"),
    ]);
  });

  it("keeps text that is on the same line as the tags", () => {
    expectParse("Reading <read_file><path>a</path></read_file> now", [
      text("Reading "),
      tool("read_file", { path: "a" }),
      text(" now"),
    ]);
    expectParse("a  \n  <read_file><path>a</path></read_file>", [
      text("a  "),
      tool("read_file", { path: "a" }),
    ]);
  });

  it("parses two tool calls with nothing but whitespace between them", () => {
    expectParse(
      "<read_file>\n<path>a</path>\n</read_file>\n\n<execute_command>\n<command>ls</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n",
      [
        tool("read_file", { path: "a" }),
        tool("execute_command", { command: "ls", requires_approval: "false" }),
      ],
    );
  });

  it("parses two tool calls with text between them", () => {
    expectParse("<read_file><path>a</path></read_file>\nand\n<read_file><path>b</path></read_file>", [
      tool("read_file", { path: "a" }),
      text("and"),
      tool("read_file", { path: "b" }),
    ]);
  });

  it("strips exactly one leading and one trailing newline from values, nothing else", () => {
    expectParse("<read_file><path>\n\n  a b  \n\n</path></read_file>", [
      tool("read_file", { path: "\n  a b  \n" }),
    ]);
    expectParse("<read_file><path></path></read_file>", [tool("read_file", { path: "" })]);
    expectParse("<read_file><path>\n</path></read_file>", [tool("read_file", { path: "" })]);
    expectParse("<read_file><path>\r</path></read_file>", [tool("read_file", { path: "\r" })]);
  });

  it("handles CRLF line endings", () => {
    expectParse("Reading.\r\n<read_file>\r\n<path>\r\nsrc/a.ts\r\n</path>\r\n</read_file>\r\n\r\nDone.\r\n", [
      text("Reading."),
      tool("read_file", { path: "src/a.ts" }),
      text("Done.\r\n"),
    ]);
    expectParse("<read_file><path>\r\na\r\n\r\n</path></read_file>", [tool("read_file", { path: "a\r\n" })]);
  });

  it("lets a repeated parameter replace the earlier value", () => {
    expectParse("<read_file><path>a</path><path>b</path></read_file>", [tool("read_file", { path: "b" })]);
  });

  it("ignores text and unknown tags between parameters", () => {
    expectParse(
      "<read_file>please <foo>bar</foo>\n<content>not a read_file param</content><path>a</path> thanks</read_file>",
      [tool("read_file", { path: "a" })],
    );
  });

  it("keeps tag-like text inside a non-greedy value literally", () => {
    expectParse(
      '<execute_command><command>cat <path>x</path> | grep "<read_file>" </execute_command> <foo/></command></execute_command>',
      [
        tool("execute_command", {
          command: 'cat <path>x</path> | grep "<read_file>" </execute_command> <foo/>',
        }),
      ],
    );
    expectParse(
      "<attempt_completion><result>Use <read_file> with <path>...</path></result></attempt_completion>",
      [tool("attempt_completion", { result: "Use <read_file> with <path>...</path>" })],
    );
  });

  it("ends a non-greedy value at the first closing tag", () => {
    expectParse("<read_file><path>a</path>b</path></read_file>", [tool("read_file", { path: "a" })]);
  });
});

describe("greedy parameters", () => {
  it("keeps </content> and <content> inside file contents", () => {
    expectParse(
      "<write_to_file>\n<path>doc.xml</path>\n<content>\n<doc>\n<content>x</content>\n</doc>\n</content>\n</write_to_file>",
      [tool("write_to_file", { path: "doc.xml", content: "<doc>\n<content>x</content>\n</doc>" })],
    );
    expectParse(
      "<write_to_file>\n<path>a</path>\n<content>\nline1\n</content>\nline2\n</content>\n</write_to_file>",
      [tool("write_to_file", { path: "a", content: "line1\n</content>\nline2" })],
    );
  });

  it("ends the value at the last </content> before the tool's closing tag", () => {
    expectParse("<write_to_file><content>a</content></content> \n\n</content> </write_to_file>", [
      tool("write_to_file", { content: "a</content></content> \n" }),
    ]);
    // Text after the last closing tag is dropped like any text between parameters.
    expectParse("<write_to_file><content>x</content> oops</write_to_file>", [
      tool("write_to_file", { content: "x" }),
    ]);
  });

  it("accepts another parameter after the greedy one", () => {
    expectParse("<write_to_file>\n<content>\nx\n</content>\n<path>a.txt</path>\n</write_to_file>", [
      tool("write_to_file", { content: "x", path: "a.txt" }),
    ]);
  });

  it("keeps a parameter tag in the value when visible text follows the tentative close", () => {
    expectParse("<write_to_file><content>a</content> see <path>p</path>\n</content></write_to_file>", [
      tool("write_to_file", { content: "a</content> see <path>p</path>" }),
    ]);
  });

  it("keeps the tool's closing tag in the value until a </content> precedes it", () => {
    expectParse("<write_to_file><content>x</write_to_file>y</content></write_to_file>", [
      tool("write_to_file", { content: "x</write_to_file>y" }),
    ]);
  });

  it("keeps </diff> inside a replace_in_file diff", () => {
    const diff =
      "------- SEARCH\nconst end = '</diff>';\n=======\nconst end = '</diff>\\n';\n+++++++ REPLACE";
    expectParse(`<replace_in_file>\n<path>a.ts</path>\n<diff>\n${diff}\n</diff>\n</replace_in_file>`, [
      tool("replace_in_file", { path: "a.ts", diff }),
    ]);
  });

  it("holds the tentative part back while streaming and releases it once settled", () => {
    const parser = createXmlToolParser(OPTIONS);
    parser.push("<write_to_file><content>a</content>\nb");
    expect(parser.blocks()).toEqual([
      tool("write_to_file", { content: "a" }, { partial: true, openParam: "content" }),
    ]);
    const events = parser.push("</content></write_to_file>");
    expect(events).toEqual([
      { type: "param_delta", index: 0, param: "content", text: "</content>\nb" },
      { type: "param_end", index: 0, param: "content", value: "a</content>\nb" },
      { type: "tool_end", index: 0, name: "write_to_file", params: { content: "a</content>\nb" } },
    ]);
  });

  it("treats </content> as final when no greedy parameters are configured", () => {
    const options = { tools: TOOLS, greedyParams: new Map() };
    expectParse(
      "<write_to_file><content>a</content>b</content></write_to_file>",
      [tool("write_to_file", { content: "a" })],
      options,
    );
  });
});

describe("incomplete tool calls", () => {
  it("leaves a tool cut inside a value partial, with that parameter open", () => {
    expectParse("Reading.\n<read_file>\n<path>src/a", [
      text("Reading."),
      tool("read_file", { path: "src/a" }, { partial: true, openParam: "path" }),
    ]);
  });

  it("leaves a tool cut between parameters partial", () => {
    expectParse("<read_file><path>a</path>\n", [tool("read_file", { path: "a" }, { partial: true })]);
    expectParse("<read_file><path>a</path></read_fi", [tool("read_file", { path: "a" }, { partial: true })]);
  });

  it("accepts the last </content> of a greedy value when the stream ends after it", () => {
    expectParse("<write_to_file><path>a</path><content>\nx\n</content>\n", [
      tool("write_to_file", { path: "a", content: "x" }, { partial: true }),
    ]);
  });
});

describe("events", () => {
  it("reports each change once, in order", () => {
    const parser = createXmlToolParser(OPTIONS);
    expect(parser.push("Hi <rea")).toEqual([{ type: "text_delta", index: 0, text: "Hi " }]);
    expect(parser.blocks()).toEqual([text("Hi ", true)]);
    expect(parser.push("d_file><pa")).toEqual([
      { type: "text_end", index: 0 },
      { type: "tool_start", index: 1, name: "read_file" },
    ]);
    expect(parser.push("th>a.t")).toEqual([
      { type: "param_start", index: 1, param: "path" },
      { type: "param_delta", index: 1, param: "path", text: "a.t" },
    ]);
    expect(parser.push("s</path></read_file>\nBye")).toEqual([
      { type: "param_delta", index: 1, param: "path", text: "s" },
      { type: "param_end", index: 1, param: "path", value: "a.ts" },
      { type: "tool_end", index: 1, name: "read_file", params: { path: "a.ts" } },
      { type: "text_delta", index: 2, text: "Bye" },
    ]);
    expect(parser.end()).toEqual([{ type: "text_end", index: 2 }]);
    expect(parser.blocks()).toEqual([text("Hi "), tool("read_file", { path: "a.ts" }), text("Bye")]);
  });

  it("returns snapshots that later pushes do not change", () => {
    const parser = createXmlToolParser(OPTIONS);
    parser.push("<read_file><path>a");
    const before = parser.blocks();
    parser.push("b</path>");
    expect(before).toEqual([tool("read_file", { path: "a" }, { partial: true, openParam: "path" })]);
  });

  it("refuses input after end and invalid tag names", () => {
    const parser = createXmlToolParser(OPTIONS);
    parser.end();
    expect(() => parser.push("x")).toThrow(/after end/);
    expect(() => parser.end()).toThrow(/twice/);
    expect(() => createXmlToolParser({ tools: new Map([["bad name", []]]) })).toThrow(/Invalid/);
    expect(() => createXmlToolParser({ tools: new Map([["t", ["a>b"]]]) })).toThrow(/Invalid/);
  });
});

describe("work stays linear", () => {
  const inputs: Record<string, string> = {
    "angle brackets": "<".repeat(20_000),
    "near-miss tool tags": "<read_fil<".repeat(4_000),
    "near-miss closing tags in a greedy value": `<write_to_file><content>${"</conten</content>x".repeat(2_000)}`,
    "tentative closes followed by blank text": `<write_to_file><content>${"</content>\n \n".repeat(2_000)}`,
    "blank lines": `a${"\n \n".repeat(10_000)}b`,
    "many tool calls": "<read_file>\n<path>a</path>\n</read_file>\n".repeat(1_000),
  };
  for (const [name, input] of Object.entries(inputs)) {
    it(`examines each character a bounded number of times: ${name}`, () => {
      for (const chunks of [[input], [...input], cutAt(input, [7, 100, 1000, 5000])]) {
        const run = parseChunks(chunks, OPTIONS);
        expect(run.charsPushed).toBe(input.length);
        expect(run.charsExamined).toBeLessThanOrEqual(4 * input.length);
      }
    });
  }

  it("does the same work per character for a message four times as long", () => {
    const unit =
      "Some prose <b>.\n<write_to_file><path>a</path><content>x</content>\ny</content></write_to_file>\n";
    const work = (n: number) => parseChunks([...unit.repeat(n)], OPTIONS).charsExamined;
    expect(work(400)).toBeLessThanOrEqual(4 * work(100) + unit.length);
  });
});

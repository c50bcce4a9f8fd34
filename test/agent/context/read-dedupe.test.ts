import { describe, expect, it } from "vitest";
import { createReadDeduplicator, duplicateReadNote } from "../../../src/agent/context/index.js";
import type { LlmMessage, ToolResultBlock } from "../../../src/llm/types.js";
import {
  deepFreeze,
  expectSameMessages,
  numberedLines,
  read,
  task,
  text,
  toolTurn,
  user,
} from "./histories.js";

const FILE = numberedLines(80);
const resultText = (message: LlmMessage, index = 0) => {
  const block = message.content.filter((b) => b.type === "tool_result")[index] as ToolResultBlock;
  return block.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("");
};

describe("duplicate reads", () => {
  it("replaces older copies of the same path, range and content with a note, keeping the latest", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([read("src/a.ts", FILE)]),
      ...toolTurn([{ name: "run", input: { command: "npm test" }, output: "1 failing\n".repeat(50) }]),
      ...toolTurn([read("src/a.ts", FILE)]),
      ...toolTurn([read("src/a.ts", FILE)]),
    ]);
    const { history: deduped, replaced } = createReadDeduplicator()(history);
    expect(replaced).toBe(2);
    expect(resultText(deduped[2]!)).toBe(duplicateReadNote("src/a.ts"));
    expect(resultText(deduped[6]!)).toBe(duplicateReadNote("src/a.ts"));
    expect(deduped[8]).toBe(history[8]);
    // Everything else is the same object; the replaced results keep their call ids.
    for (const i of [0, 1, 3, 4, 5, 7]) expect(deduped[i]).toBe(history[i]);
    expect((deduped[2]!.content[0] as ToolResultBlock).callId).toBe(
      (history[2]!.content[0] as ToolResultBlock).callId,
    );
  });

  it("keeps reads of different ranges, changed content or other files, and errors", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([read("src/a.ts", numberedLines(40), { start_line: 1, end_line: 40 })]),
      ...toolTurn([read("src/a.ts", numberedLines(40), { start_line: 41, end_line: 80 })]),
      ...toolTurn([read("src/a.ts", FILE)]),
      ...toolTurn([read("src/a.ts", `${FILE}\n81 | // changed`)]),
      ...toolTurn([read("src/b.ts", `${FILE}\n81 | // changed`)]),
      ...toolTurn([{ ...read("src/c.ts", `missing ${"x".repeat(400)}`), isError: true }]),
      ...toolTurn([{ ...read("src/c.ts", `missing ${"x".repeat(400)}`), isError: true }]),
      ...toolTurn([{ name: "search", input: { path: "src/a.ts" }, output: FILE }]),
      ...toolTurn([{ name: "search", input: { path: "src/a.ts" }, output: FILE }]),
    ]);
    const result = createReadDeduplicator()(history);
    expect(result.replaced).toBe(0);
    expectSameMessages(result.history, history);
  });

  it("names the range in the note, and leaves short results alone", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([read("src/a.ts", FILE, { start_line: 5 }), read("src/tiny.ts", "1 | x")]),
      ...toolTurn([read("src/a.ts", FILE, { start_line: 5 }), read("src/tiny.ts", "1 | x")]),
    ]);
    const { history: deduped, replaced } = createReadDeduplicator()(history);
    expect(replaced).toBe(1);
    expect(resultText(deduped[2]!, 0)).toBe(duplicateReadNote("src/a.ts (lines 5-end)"));
    expect(resultText(deduped[2]!, 1)).toBe("1 | x");
  });

  it("treats images in results as content", () => {
    const image = (data: string) => ({ type: "image" as const, mediaType: "image/png", data });
    const [call1, result1] = toolTurn([read("logo.png", "Image logo.png (png).")]);
    const [call2, result2] = toolTurn([read("logo.png", "Image logo.png (png).")]);
    const withImage = (message: LlmMessage, data: string): LlmMessage => ({
      ...message,
      content: message.content.map((b) =>
        b.type === "tool_result" ? { ...b, content: [...b.content, image(data)] } : b,
      ),
    });
    const same = deepFreeze([
      task(),
      call1!,
      withImage(result1!, "AAAA"),
      call2!,
      withImage(result2!, "AAAA"),
    ]);
    expect(createReadDeduplicator()(same).replaced).toBe(1);
    const changed = deepFreeze([
      task(),
      call1!,
      withImage(result1!, "AAAA"),
      call2!,
      withImage(result2!, "BBBB"),
    ]);
    expect(createReadDeduplicator()(changed).replaced).toBe(0);
  });

  it("recognises XML-protocol results by their header", () => {
    const xmlRead = (path: string, body: string) => [
      { role: "assistant" as const, content: [text(`<read_file>\n<path>${path}</path>\n</read_file>`)] },
      user(text(`[read_file for '${path}'] Result:\n${body}`)),
    ];
    const history = deepFreeze([
      task(),
      ...xmlRead("src/a.ts", FILE),
      ...xmlRead("src/a.ts", numberedLines(80, 0, 81)),
      ...xmlRead("src/a.ts", FILE),
    ]);
    const { history: deduped, replaced } = createReadDeduplicator()(history);
    expect(replaced).toBe(1);
    expect(deduped[2]!.content[0]).toEqual(
      text(`[read_file for 'src/a.ts'] Result:\n${duplicateReadNote("src/a.ts")}`),
    );
    expect(deduped[4]).toBe(history[4]);
  });

  it("makes each copy once, and considers only the reads before `upTo`", () => {
    const dedupe = createReadDeduplicator();
    const history = deepFreeze([
      task(),
      ...toolTurn([read("src/a.ts", FILE)]),
      ...toolTurn([read("src/a.ts", FILE)]),
    ]);
    const first = dedupe(history);
    const again = dedupe([...history, ...toolTurn([read("src/b.ts", FILE)])]);
    expect(again.history[2]).toBe(first.history[2]);
    // With the horizon before the second read, the first copy is still the latest one.
    expect(dedupe(history, 3).replaced).toBe(0);
    expect(dedupe(history, 5).replaced).toBe(1);
  });

  it("takes a custom set of read tools", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([{ name: "view", input: { path: "a" }, output: FILE }]),
      ...toolTurn([{ name: "view", input: { path: "a" }, output: FILE }]),
    ]);
    expect(createReadDeduplicator()(history).replaced).toBe(0);
    expect(createReadDeduplicator(["view"])(history).replaced).toBe(1);
  });
});

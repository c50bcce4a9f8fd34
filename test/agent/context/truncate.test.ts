import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cutMiddle,
  estimateMessagesTokens,
  fitToolOutputs,
  shortenToolOutputs,
  truncateToFit,
  truncationNote,
} from "../../../src/agent/context/index.js";
import type { ToolResultBlock } from "../../../src/llm/types.js";
import {
  deepFreeze,
  historyArbitrary,
  numberedLines,
  read,
  structureProblems,
  task,
  text,
  toolTurn,
  user,
} from "./histories.js";

describe("cutMiddle", () => {
  it("keeps the head and the tail at line breaks and says how much was cut", () => {
    const long = numberedLines(400);
    const cut = cutMiddle(long, 2000);
    expect(cut.length).toBeLessThan(2200);
    expect(cut.startsWith(long.split("\n")[0]!)).toBe(true);
    expect(cut.endsWith(long.split("\n").at(-1)!)).toBe(true);
    const note = /\[\.\.\. ([\d,]+) characters cut here to fit the context window \.\.\.\]/.exec(cut);
    expect(note).not.toBeNull();
    const [head, tail] = cut.split(`\n${note![0]}\n`);
    expect(Number(note![1]!.replace(/,/g, ""))).toBe(long.length - head!.length - tail!.length);
    expect(long.startsWith(head!)).toBe(true);
    expect(long.endsWith(tail!)).toBe(true);
    expect(cutMiddle("short", 100)).toBe("short");
  });
});

describe("shortening tool outputs", () => {
  it("cuts long outputs in the chosen range only, leaves the rest as the same objects, and is deterministic", () => {
    const history = deepFreeze([
      task(`Read this: ${"t".repeat(5000)}`),
      ...toolTurn([read("a", numberedLines(300))]),
      ...toolTurn([read("b", numberedLines(300))]),
    ]);
    const short = shortenToolOutputs(history, 1000, 1, 3);
    expect(short[0]).toBe(history[0]);
    expect(short[4]).toBe(history[4]);
    expect(
      ((short[2]!.content[0] as ToolResultBlock).content[0] as { text: string }).text.length,
    ).toBeLessThan(1200);
    expect(shortenToolOutputs(history, 1000, 1, 3)).toEqual(short);
  });

  it("drops images from results and shortens XML-protocol results after their header", () => {
    const history = deepFreeze([
      task(),
      user(
        {
          type: "tool_result",
          callId: "c1",
          content: [text("Image a.png"), { type: "image", mediaType: "image/png", data: "AAAA" }],
        },
        text(`[read_file for 'a.ts'] Result:\n${numberedLines(300)}`),
      ),
    ]);
    const [result, xml] = shortenToolOutputs(history, 500)[1]!.content;
    expect((result as ToolResultBlock).content.map((p) => p.type)).toEqual(["text", "text"]);
    expect(xml).toMatchObject({
      text: expect.stringMatching(/^\[read_file for 'a.ts'\] Result:\n {2}1 \| /),
    });
    expect((xml as { text: string }).text.length).toBeLessThan(700);
  });

  it("halves the cap until the messages fit", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([read("a", numberedLines(2000)), read("b", numberedLines(50))]),
    ]);
    const full = estimateMessagesTokens(history);
    const fitted = fitToolOutputs(history, full / 4, 0, 1);
    expect(fitted.fits).toBe(true);
    expect(fitted.tokens).toBeLessThanOrEqual(full / 4);
    // The short output is left whole when cutting the long one is enough.
    const results = fitted.messages[2]!.content as ToolResultBlock[];
    expect(results[1]).toBe(history[2]!.content[1]);
    expect(fitToolOutputs(history, 10, 0, 1).fits).toBe(false);
  });
});

describe("truncateToFit", () => {
  it("keeps the task with a note and the most recent turns that fit", () => {
    const history = deepFreeze([
      task(),
      ...Array.from({ length: 10 }, (_, i) => toolTurn([read(`f${i}`, numberedLines(100, i))])).flat(),
    ]);
    const lastThree = estimateMessagesTokens(history.slice(-6));
    const result = truncateToFit(history, lastThree + 200, 0);
    expect(result.fits).toBe(true);
    expect(result.removed).toBe(14);
    expect(result.history.slice(1)).toEqual(history.slice(15));
    expect(result.history[0]!.content).toEqual([...history[0]!.content, text(truncationNote(14))]);
    // A second truncation replaces the note instead of adding another.
    const again = truncateToFit([...result.history, ...toolTurn([read("g", "x")])], lastThree, 0);
    expect(
      again.history[0]!.content.filter((b) => b.type === "text" && b.text.startsWith("[Context note")),
    ).toHaveLength(1);
  });

  it("shortens the latest turn's outputs when even it does not fit", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([read("a", "x")]),
      ...toolTurn([read("b", numberedLines(3000))]),
    ]);
    const result = truncateToFit(history, 2000, 300);
    expect(result.fits).toBe(true);
    expect(result.removed).toBe(2);
    expect(result.tokens).toBeLessThanOrEqual(2000);
    expect(JSON.stringify(result.history)).toContain("characters cut here");
  });

  it("keeps pairs, alternation, the task and the latest message, and fits whenever possible (property)", () => {
    fc.assert(
      fc.property(historyArbitrary, fc.integer({ min: 200, max: 30_000 }), (history, limit) => {
        deepFreeze(history);
        const result = truncateToFit(history, limit, 100);
        expect(structureProblems(result.history)).toEqual([]);
        expect(result.history[0]!.content[0]).toBe(history[0]!.content[0]);
        const last = result.history.at(-1)!;
        expect(last.role).toBe(history.at(-1)!.role);
        expect(result.tokens).toBe(100 + estimateMessagesTokens(result.history));
        if (result.fits) expect(result.tokens).toBeLessThanOrEqual(limit);
        expect(result.history.length + result.removed).toBe(history.length);
      }),
      { numRuns: 300 },
    );
  });
});

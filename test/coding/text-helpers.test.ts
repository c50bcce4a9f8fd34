import { describe, expect, it } from "vitest";
import { countLineChanges } from "../../src/coding/files/line-changes.js";
import {
  applyTextFormat,
  detectTextFormat,
  looksBinary,
  splitLines,
} from "../../src/coding/files/text-format.js";
import { HeadTailBuffer } from "../../src/coding/process/output-buffer.js";

describe("HeadTailBuffer", () => {
  it("keeps everything up to the limit", () => {
    const buffer = new HeadTailBuffer(10);
    for (const chunk of ["abc", "defg", "hij"]) buffer.append(chunk);
    const kept = buffer.kept();
    expect(kept.head + kept.tail).toBe("abcdefghij");
    expect(kept.omitted).toBe(0);
  });

  it("keeps the first and last halves of longer output", () => {
    const buffer = new HeadTailBuffer(10);
    for (let i = 0; i < 100; i++) buffer.append(String(i % 10));
    expect(buffer.kept()).toEqual({ head: "01234", tail: "56789", omitted: 90 });
  });
});

describe("countLineChanges", () => {
  it("counts a changed region between a common head and tail", () => {
    expect(countLineChanges(["a", "b", "c", "d"], ["a", "B", "B2", "d"])).toEqual({
      linesAdded: 2,
      linesRemoved: 2,
    });
    expect(countLineChanges([], ["x", "y"])).toEqual({ linesAdded: 2, linesRemoved: 0 });
    expect(countLineChanges(["x", "x"], ["x"])).toEqual({ linesAdded: 0, linesRemoved: 1 });
  });
});

describe("text format", () => {
  it("detects CRLF and BOM and writes them back", () => {
    const format = detectTextFormat("\uFEFFa\r\nb\r\n");
    expect(format).toEqual({ eol: "\r\n", bom: true });
    expect(applyTextFormat("x\ny\n", format)).toBe("\uFEFFx\r\ny\r\n");
    expect(detectTextFormat("a\nb\r\nc\n").eol).toBe("\n");
  });

  it("splits lines without a phantom last line and sniffs binary content", () => {
    expect(splitLines("a\nb\n")).toEqual(["a", "b"]);
    expect(splitLines("a\n\n")).toEqual(["a", ""]);
    expect(looksBinary(Buffer.from("text"))).toBe(false);
    expect(looksBinary(Buffer.from([65, 0, 66]))).toBe(true);
  });
});

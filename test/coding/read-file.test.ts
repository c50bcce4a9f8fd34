import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReadFileTool } from "../../src/coding/tools/read-file.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

describe("read_file", () => {
  let temp: TempWorkspace;
  const run = (input: Parameters<ReturnType<typeof createReadFileTool>["execute"]>[0], maxLines?: number) =>
    createReadFileTool({ workspace: temp.workspace, maxLines }).execute(input, createTestToolContext().ctx);

  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(() => temp.remove());

  it("returns the whole small file with right-aligned line numbers", async () => {
    await temp.write({ "a.txt": `${numbered(12)}\n` });
    const result = await run({ path: "a.txt" });
    expect(result.isError).toBeFalsy();
    const text = textOf(result.content);
    expect(text.split("\n")[0]).toBe(" 1 | line 1");
    expect(text).toContain("12 | line 12");
    expect(text).not.toContain("Showing");
    expect(result.details).toEqual({
      kind: "text",
      path: "a.txt",
      startLine: 1,
      endLine: 12,
      totalLines: 12,
    });
  });

  it("reads an inclusive range", async () => {
    await temp.write({ "a.txt": numbered(30) });
    const result = await run({ path: "a.txt", start_line: 10, end_line: 12 });
    expect(textOf(result.content)).toBe(
      "10 | line 10\n11 | line 11\n12 | line 12\n\n(Showing lines 10-12 of 30. Use start_line=13 to read more.)",
    );
    expect(result.details).toEqual({
      kind: "text",
      path: "a.txt",
      startLine: 10,
      endLine: 12,
      totalLines: 30,
    });
  });

  it("caps the window and says how to continue", async () => {
    await temp.write({ "big.txt": numbered(5230) });
    const result = await run({ path: "big.txt" });
    const text = textOf(result.content);
    expect(text).toContain("1000 | line 1000");
    expect(text).not.toContain("line 1001");
    expect(text).toContain("(Showing lines 1-1000 of 5230. Use start_line=1001 to read more.)");
    const next = await run({ path: "big.txt", start_line: 5001 });
    expect(textOf(next.content)).toContain("5230 | line 5230");
    expect(textOf(next.content)).toContain("(Showing lines 5001-5230 of 5230.)");
  });

  it("caps an explicit range at the window size", async () => {
    await temp.write({ "a.txt": numbered(50) });
    const result = await run({ path: "a.txt", start_line: 1, end_line: 50 }, 20);
    expect(result.details).toMatchObject({ endLine: 20 });
    expect(textOf(result.content)).toContain("Use start_line=21");
  });

  it("handles CRLF files and a start past the end", async () => {
    await temp.write({ "crlf.txt": "one\r\ntwo\r\n" });
    const result = await run({ path: "crlf.txt" });
    expect(textOf(result.content)).toBe("1 | one\n2 | two");
    const past = await run({ path: "crlf.txt", start_line: 5 });
    expect(past.isError).toBe(true);
    expect(textOf(past.content)).toContain("has 2 lines");
  });

  it("reports an empty file", async () => {
    await temp.write({ "empty.txt": "" });
    const result = await run({ path: "empty.txt" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toContain("empty");
    expect(result.details).toMatchObject({ totalLines: 0 });
  });

  it("refuses binary files", async () => {
    await temp.write({ "img.bin": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
    const result = await run({ path: "img.bin" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/binary/);
  });

  it("says a missing file does not exist", async () => {
    const result = await run({ path: "nope/missing.ts" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("nope/missing.ts does not exist");
  });

  it("refuses directories and paths outside the workspace", async () => {
    await temp.write({ "src/a.ts": "x" });
    const dir = await run({ path: "src" });
    expect(dir.isError).toBe(true);
    expect(textOf(dir.content)).toMatch(/directory.*list_files/);
    const outside = await run({ path: "../../etc/passwd" });
    expect(outside.isError).toBe(true);
    expect(textOf(outside.content)).toMatch(/outside the workspace/);
  });

  it("cuts very long lines", async () => {
    await temp.write({ "min.js": "x".repeat(5000) });
    const text = textOf((await run({ path: "min.js" })).content);
    expect(text.length).toBeLessThan(2200);
    expect(text).toContain("3000 more characters");
  });

  it("summarizes with the range", () => {
    const tool = createReadFileTool({ workspace: temp.workspace });
    expect(tool.summarize({ path: "src/a.ts", start_line: 10, end_line: 20 })).toBe(
      "read_file src/a.ts:10-20",
    );
    expect(tool.summarize({ path: "src/a.ts" })).toBe("read_file src/a.ts");
    expect(tool.mutates).toBe(false);
  });
});

import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/agent/tool.js";
import { createReadFileTool } from "../../src/coding/tools/read-file.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

const UNCHANGED =
  /^\(File unchanged since you read lines (\d+)-(\d+) at \d\d:\d\d:\d\d; the content is in your earlier result\./;

describe("read_file re-reads", () => {
  let temp: TempWorkspace;
  let tool: ReturnType<typeof createReadFileTool>;
  let ctx: ToolContext;
  const read = (input: { path: string; start_line?: number; end_line?: number }, context = ctx) =>
    tool.execute(input, context);

  beforeEach(async () => {
    temp = await createTempWorkspace({ "a.txt": "one\ntwo\nthree\nfour\n" });
    tool = createReadFileTool({ workspace: temp.workspace });
    ctx = createTestToolContext().ctx;
  });
  afterEach(() => temp.remove());

  it("answers an identical read of an unchanged file with a short note", async () => {
    const first = await read({ path: "a.txt" });
    expect(textOf(first.content)).toContain("4 | four");
    const again = await read({ path: "a.txt" });
    expect(again.isError).toBeFalsy();
    expect(textOf(again.content)).toMatch(UNCHANGED);
    expect(textOf(again.content)).toContain("lines 1-4");
    expect(textOf(again.content)).toContain("call read_file again with the same arguments");
    expect(again.details).toMatchObject({ kind: "text", startLine: 1, endLine: 4, unchanged: true });
  });

  it("returns the content when asked a third time, for a model that lost the earlier result", async () => {
    await read({ path: "a.txt", start_line: 2, end_line: 3 });
    expect(textOf((await read({ path: "a.txt", start_line: 2, end_line: 3 })).content)).toMatch(UNCHANGED);
    const third = await read({ path: "a.txt", start_line: 2, end_line: 3 });
    expect(textOf(third.content)).toContain("2 | two\n3 | three");
  });

  it("returns the content after the file changes, even at the same size", async () => {
    await read({ path: "a.txt" });
    await temp.write({ "a.txt": "ONE\ntwo\nthree\nfour\n" });
    const abs = path.join(temp.root, "a.txt");
    const later = new Date(Date.now() + 5000);
    await fs.utimes(abs, later, later);
    const after = await read({ path: "a.txt" });
    expect(textOf(after.content)).toContain("1 | ONE");
    await temp.write({ "a.txt": "one\ntwo\n" });
    expect(textOf((await read({ path: "a.txt" })).content)).toBe("1 | one\n2 | two");
  });

  it("returns the content for a different range or another task", async () => {
    await read({ path: "a.txt", start_line: 1, end_line: 2 });
    const other = await read({ path: "a.txt", start_line: 2, end_line: 3 });
    expect(textOf(other.content)).toContain("2 | two\n3 | three");
    const whole = await read({ path: "a.txt" });
    expect(textOf(whole.content)).toContain("1 | one");
    const otherTask = { ...createTestToolContext().ctx, taskId: "task-2" };
    const elsewhere = await read({ path: "a.txt", start_line: 1, end_line: 2 }, otherTask);
    expect(textOf(elsewhere.content)).toContain("1 | one\n2 | two");
  });

  it("does not remember errors or empty files", async () => {
    await temp.write({ "empty.txt": "" });
    await read({ path: "empty.txt" });
    expect(textOf((await read({ path: "empty.txt" })).content)).toBe("(empty.txt is empty.)");
    await read({ path: "a.txt", start_line: 9 });
    const past = await read({ path: "a.txt", start_line: 9 });
    expect(past.isError).toBe(true);
  });

  it("notes an unchanged image too", async () => {
    const gif = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0, 0x3b]);
    await temp.write({ "dot.gif": gif });
    tool = createReadFileTool({ workspace: temp.workspace, supportsImages: true });
    expect((await read({ path: "dot.gif" })).details).toMatchObject({ kind: "image" });
    const again = await read({ path: "dot.gif" });
    expect(textOf(again.content)).toMatch(/^\(File unchanged since you viewed it at /);
    expect(again.details).toMatchObject({ kind: "image", unchanged: true });
  });
});

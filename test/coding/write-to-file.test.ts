import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWriteToFileTool } from "../../src/coding/tools/write-to-file.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

describe("write_to_file", () => {
  let temp: TempWorkspace;
  const run = (input: { path: string; content: string }) =>
    createWriteToFileTool({ workspace: temp.workspace }).execute(input, createTestToolContext().ctx);

  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(() => temp.remove());

  it("creates a file and its parent directories", async () => {
    const result = await run({ path: "deep/er/new.ts", content: "a\nb\n" });
    expect(result.isError).toBeFalsy();
    expect(await temp.read("deep/er/new.ts")).toBe("a\nb\n");
    expect(result.details).toEqual({ path: "deep/er/new.ts", created: true, linesAdded: 2, linesRemoved: 0 });
    expect(textOf(result.content)).toContain("Created deep/er/new.ts");
  });

  it("overwrites a file and counts changed lines", async () => {
    await temp.write({ "a.txt": "one\ntwo\nthree\nfour\n" });
    const result = await run({ path: "a.txt", content: "one\nTWO\nthree\nfour\nfive\n" });
    expect(await temp.read("a.txt")).toBe("one\nTWO\nthree\nfour\nfive\n");
    expect(result.details).toEqual({ path: "a.txt", created: false, linesAdded: 2, linesRemoved: 1 });
  });

  it("keeps an existing file's CRLF line endings", async () => {
    await temp.write({ "win.txt": "old\r\nlines\r\n" });
    const result = await run({ path: "win.txt", content: "new\nlines\nhere\n" });
    expect(await temp.read("win.txt")).toBe("new\r\nlines\r\nhere\r\n");
    expect(result.details).toMatchObject({ linesAdded: 2, linesRemoved: 1 });
    expect(textOf(result.content)).toContain("CRLF");
  });

  it("writes new files as given and keeps LF files LF", async () => {
    await temp.write({ "unix.txt": "a\n" });
    await run({ path: "unix.txt", content: "b\r\nc\r\n" });
    expect(await temp.read("unix.txt")).toBe("b\nc\n");
  });

  it("writes atomically, leaving no temporary file and keeping the file mode", async () => {
    await temp.write({ "run.sh": "#!/bin/sh\n" });
    await fs.chmod(path.join(temp.root, "run.sh"), 0o755);
    await run({ path: "run.sh", content: "#!/bin/sh\necho hi\n" });
    expect(await fs.readdir(temp.root)).toEqual(["run.sh"]);
    expect((await fs.stat(path.join(temp.root, "run.sh"))).mode & 0o777).toBe(0o755);
  });

  it("writes through a symlink inside the workspace to its target, keeping the link", async () => {
    await temp.write({ "real.txt": "old\n" });
    await fs.symlink(path.join(temp.root, "real.txt"), path.join(temp.root, "link.txt"));
    await run({ path: "link.txt", content: "new\n" });
    expect(await temp.read("real.txt")).toBe("new\n");
    expect((await fs.lstat(path.join(temp.root, "link.txt"))).isSymbolicLink()).toBe(true);
  });

  it("refuses directories and paths outside the workspace", async () => {
    await fs.mkdir(path.join(temp.root, "dir"));
    const dir = await run({ path: "dir", content: "x" });
    expect(dir.isError).toBe(true);
    expect(textOf(dir.content)).toMatch(/directory/);
    const outside = await run({ path: "../escape.txt", content: "x" });
    expect(outside.isError).toBe(true);
    await expect(fs.access(path.join(temp.root, "..", "escape.txt"))).rejects.toThrow();
  });

  it("explains when a part of the path is a file", async () => {
    await temp.write({ "a.txt": "x" });
    const result = await run({ path: "a.txt/b.txt", content: "y" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("a part of its path is a file");
  });

  it("is a mutating tool with a one-line summary", () => {
    const tool = createWriteToFileTool({ workspace: temp.workspace });
    expect(tool.mutates).toBe(true);
    expect(tool.summarize({ path: "a.ts", content: "x" })).toBe("write_to_file a.ts");
  });
});

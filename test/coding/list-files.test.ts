import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createListFilesTool } from "../../src/coding/tools/list-files.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

describe("list_files", () => {
  let temp: TempWorkspace;
  const run = (input: { path: string; recursive?: boolean }, maxEntries?: number) =>
    createListFilesTool({ workspace: temp.workspace, maxEntries }).execute(
      input,
      createTestToolContext().ctx,
    );

  beforeEach(async () => {
    temp = await createTempWorkspace({
      "README.md": "r",
      "b.txt": "b",
      ".gitignore": "secret/\n*.log\n",
      "src/index.ts": "i",
      "src/lib/util.ts": "u",
      "src/lib/deep/x.ts": "x",
      "node_modules/dep/index.js": "d",
      ".git/HEAD": "ref",
      "dist/out.js": "o",
      "secret/key.txt": "k",
      "debug.log": "l",
      ".github/workflows/ci.yml": "c",
    });
  });
  afterEach(() => temp.remove());

  it("lists one level, directories first with a trailing slash, sorted", async () => {
    const result = await run({ path: "." });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content).split("\n")).toEqual([
      ".git/",
      ".github/",
      "dist/",
      "node_modules/",
      "secret/",
      "src/",
      ".gitignore",
      "README.md",
      "b.txt",
      "debug.log",
    ]);
  });

  it("prefixes entries of a subdirectory with its workspace-relative path", async () => {
    const result = await run({ path: "src" });
    expect(textOf(result.content).split("\n")).toEqual(["src/lib/", "src/index.ts"]);
  });

  it("lists recursively, skipping dependency, build and ignored entries", async () => {
    const result = await run({ path: ".", recursive: true });
    const lines = textOf(result.content).split("\n");
    expect(lines).toEqual([
      ".github/",
      ".github/workflows/",
      ".github/workflows/ci.yml",
      "src/",
      "src/lib/",
      "src/lib/deep/",
      "src/lib/deep/x.ts",
      "src/lib/util.ts",
      "src/index.ts",
      ".gitignore",
      "README.md",
      "b.txt",
    ]);
    expect(result.details).toMatchObject({ recursive: true, truncated: false, total: 12 });
  });

  it("lists inside a skipped directory when asked for it directly", async () => {
    const result = await run({ path: "node_modules", recursive: true });
    expect(textOf(result.content).split("\n")).toEqual(["node_modules/dep/", "node_modules/dep/index.js"]);
  });

  it("caps the listing breadth-first, with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`many/f${String(i).padStart(2, "0")}.txt`] = "x";
    files["many/sub/deep.txt"] = "x";
    await temp.write(files);
    const result = await run({ path: "many", recursive: true }, 10);
    const text = textOf(result.content);
    const entries = result.details?.entries ?? [];
    expect(entries).toHaveLength(10);
    // Breadth-first: the subdirectory is listed, its contents (one level deeper) are not.
    expect(entries).toContain("many/sub/");
    expect(entries).not.toContain("many/sub/deep.txt");
    expect(text).toContain("(Showing 10 of 32 entries. List a subdirectory to see more.)");
    expect(result.details?.truncated).toBe(true);
  });

  it("caps a flat listing too", async () => {
    const result = await run({ path: "." }, 3);
    expect(result.details?.entries).toEqual([".git/", ".github/", "dist/"]);
    expect(textOf(result.content)).toContain("Showing 3 of 10 entries");
  });

  it("reports empty directories, files and missing paths", async () => {
    await fs.mkdir(path.join(temp.root, "empty"));
    expect(textOf((await run({ path: "empty" })).content)).toBe("empty is empty.");
    const file = await run({ path: "README.md" });
    expect(file.isError).toBe(true);
    expect(textOf(file.content)).toMatch(/is a file.*read_file/);
    const missing = await run({ path: "nope" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing.content)).toContain("nope does not exist");
  });

  it("refuses paths outside the workspace", async () => {
    const result = await run({ path: "..", recursive: true });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("outside the workspace");
  });

  it("summarizes", () => {
    const tool = createListFilesTool({ workspace: temp.workspace });
    expect(tool.summarize({ path: "src", recursive: true })).toBe("list_files src (recursive)");
    expect(tool.mutates).toBe(false);
  });
});

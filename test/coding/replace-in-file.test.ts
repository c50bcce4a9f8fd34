import fs from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReplaceInFileTool } from "../../src/coding/tools/replace-in-file.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

const block = (search: string, replace: string, markers: "new" | "legacy" = "new") =>
  markers === "new"
    ? `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`
    : `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

const SOURCE = [
  "function add(a, b) {",
  "  return a - b;",
  "}",
  "",
  "function sub(a, b) {",
  "  return a - b;",
  "}",
  "",
].join("\n");

describe("replace_in_file", () => {
  let temp: TempWorkspace;
  const run = (diff: string, path = "math.js") =>
    createReplaceInFileTool({ workspace: temp.workspace }).execute(
      { path, diff },
      createTestToolContext().ctx,
    );

  beforeEach(async () => {
    temp = await createTempWorkspace({ "math.js": SOURCE });
  });
  afterEach(() => temp.remove());

  it("applies a single block", async () => {
    const result = await run(
      block("function add(a, b) {\n  return a - b;", "function add(a, b) {\n  return a + b;"),
    );
    expect(result.isError).toBeFalsy();
    expect(await temp.read("math.js")).toBe(
      SOURCE.replace("add(a, b) {\n  return a - b;", "add(a, b) {\n  return a + b;"),
    );
    expect(result.details).toEqual({
      path: "math.js",
      applied: 1,
      blocks: [{ block: 1, line: 1, stage: "exact" }],
      failed: [],
    });
    expect(textOf(result.content)).toContain("block 1 at line 1");
  });

  it("applies several blocks in order, each to the result of the previous", async () => {
    const diff = [
      block("function add(a, b) {", "function plus(a, b) {"),
      block("function plus(a, b) {\n  return a - b;", "function plus(a, b) {\n  return a + b;"),
      block("function sub(a, b) {", "function minus(a, b) {", "legacy"),
    ].join("\n\n");
    const result = await run(diff);
    expect(result.details).toMatchObject({ applied: 3, failed: [] });
    const text = await temp.read("math.js");
    expect(text).toContain("function plus(a, b) {\n  return a + b;");
    expect(text).toContain("function minus(a, b) {\n  return a - b;");
  });

  it("deletes lines when REPLACE is empty", async () => {
    await run("------- SEARCH\n\nfunction sub(a, b) {\n  return a - b;\n}\n=======\n+++++++ REPLACE");
    expect(await temp.read("math.js")).toBe("function add(a, b) {\n  return a - b;\n}\n");
  });

  it("applies the blocks that match and reports the ones that fail", async () => {
    const diff = [
      block("nothing like this", "x"),
      block("function sub(a, b) {", "function minus(a, b) {"),
    ].join("\n");
    const result = await run(diff);
    expect(result.isError).toBe(true);
    expect(result.details?.applied).toBe(1);
    expect(result.details?.failed).toHaveLength(1);
    expect(result.details?.failed[0]?.block).toBe(1);
    expect(await temp.read("math.js")).toContain("function minus(a, b) {");
    const text = textOf(result.content);
    expect(text).toContain("applied 1 of 2 blocks");
    expect(text).toMatch(/Block 1: .*not found.*read_file/);
  });

  it("refuses an ambiguous SEARCH and names the lines", async () => {
    const result = await run(block("  return a - b;", "  return 0;"));
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/Block 1: .*matches 2 places \(lines 2, 6\)/);
    expect(await temp.read("math.js")).toBe(SOURCE);
  });

  it("matches whole lines only, and refuses a loose match found in two places", async () => {
    const result = await run(block("return a -", "return 0;"));
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("not found");
    const twice = await run(block("return a - b;", "return 0;"));
    expect(textOf(twice.content)).toMatch(/matches 2 places \(ignoring indentation\) \(lines 2, 6\)/);
    expect(await temp.read("math.js")).toBe(SOURCE);
  });

  it("tolerates an indentation slip, re-indents the new lines and says how it matched", async () => {
    const result = await run(
      block("function add(a, b) {\n    return a - b;", "function add(a, b) {\n    return a + b;"),
    );
    expect(result.isError).toBeFalsy();
    expect(result.details?.blocks[0]?.stage).toBe("line-trimmed");
    expect(textOf(result.content)).toContain("matched ignoring leading and trailing whitespace");
    expect(await temp.read("math.js")).toContain("function add(a, b) {\n  return a + b;\n}");
  });

  it("writes nothing when no block applies, and hints at whitespace and line-number mistakes", async () => {
    const before = await fs.stat(`${temp.root}/math.js`);
    const result = await run(block("function add(a, b) {\n    throw new Error('no');", "x"));
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ applied: 0 });
    expect(textOf(result.content)).toContain("No changes were made");
    expect(textOf(result.content)).toMatch(/closest lines.*\n1 \| function add\(a, b\) \{/);
    expect(await temp.read("math.js")).toBe(SOURCE);
    expect((await fs.stat(`${temp.root}/math.js`)).mtimeMs).toBe(before.mtimeMs);
    const numbered = await run(block("1 | function add(a, b) {", "x"));
    expect(textOf(numbered.content)).toContain("line numbers");
  });

  it("keeps CRLF files CRLF", async () => {
    await temp.write({ "win.txt": "alpha\r\nbeta\r\ngamma\r\n" });
    const result = await run(block("beta", "BETA\nbeta2"), "win.txt");
    expect(result.isError).toBeFalsy();
    expect(await temp.read("win.txt")).toBe("alpha\r\nBETA\r\nbeta2\r\ngamma\r\n");
  });

  it("keeps a missing final newline missing", async () => {
    await temp.write({ "nofinal.txt": "a\nb" });
    await run(block("b", "c"), "nofinal.txt");
    expect(await temp.read("nofinal.txt")).toBe("a\nc");
  });

  it("explains the format when the diff has no markers", async () => {
    const result = await run("replace add with plus");
    expect(result.isError).toBe(true);
    const text = textOf(result.content);
    expect(text).toContain("malformed");
    expect(text).toContain("------- SEARCH");
    expect(text).toContain("+++++++ REPLACE");
    expect(await temp.read("math.js")).toBe(SOURCE);
  });

  it("leaves no temporary file behind", async () => {
    await run(block("function add(a, b) {", "function plus(a, b) {"));
    expect(await fs.readdir(temp.root)).toEqual(["math.js"]);
  });

  it("points to write_to_file for a missing file", async () => {
    const result = await run(block("a", "b"), "missing.js");
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/does not exist.*write_to_file/);
  });

  it("refuses paths outside the workspace", async () => {
    const result = await run(block("root", "x"), "/etc/passwd");
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("outside the workspace");
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSearchFilesTool } from "../../src/coding/tools/search-files.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

describe("search_files", () => {
  let temp: TempWorkspace;
  const run = (input: { path: string; regex: string; file_pattern?: string }, maxMatches?: number) =>
    createSearchFilesTool({ workspace: temp.workspace, maxMatches }).execute(
      input,
      createTestToolContext().ctx,
    );

  beforeEach(async () => {
    temp = await createTempWorkspace({
      "src/a.ts": "import x from 'y';\n\nexport function alpha() {\n  return TODO;\n}\n",
      "src/b.js": "// TODO: fix\nconst b = 1;\n",
      "docs/readme.md": "nothing to see\n",
      "node_modules/dep/index.js": "// TODO in a dependency\n",
      ".gitignore": "ignored.txt\n",
      "ignored.txt": "TODO ignored\n",
    });
  });
  afterEach(() => temp.remove());

  it("groups matches per file with line numbers and one line of context", async () => {
    const result = await run({ path: ".", regex: "TODO" });
    expect(result.isError).toBeFalsy();
    const text = textOf(result.content);
    expect(text).toContain("Found 2 results in 2 files.");
    expect(text).toContain("\n\nsrc/a.ts\n 3 | export function alpha() {\n>4 |   return TODO;\n 5 | }");
    expect(text).toContain("\n\nsrc/b.js\n>1 | // TODO: fix\n 2 | const b = 1;");
    expect(text).not.toContain("node_modules");
    expect(text).not.toContain("ignored.txt");
    expect(result.details).toMatchObject({ path: ".", matches: 2, files: 2, truncated: false });
  });

  it("searches only below the given path", async () => {
    const text = textOf((await run({ path: "src", regex: "TODO" })).content);
    expect(text).toContain("src/a.ts");
    expect(text).toContain("src/b.js");
    expect(textOf((await run({ path: "docs", regex: "TODO" })).content)).toBe("Found 0 results.");
  });

  it("filters files with file_pattern", async () => {
    const result = await run({ path: ".", regex: "TODO", file_pattern: "*.js" });
    const text = textOf(result.content);
    expect(text).toContain("src/b.js");
    expect(text).not.toContain("src/a.ts");
    expect(result.details).toMatchObject({ filePattern: "*.js", matches: 1 });
  });

  it("says when nothing matches", async () => {
    const result = await run({ path: ".", regex: "no_such_thing_\\d+" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe("Found 0 results.");
  });

  it("returns rg's message for an invalid regex", async () => {
    const result = await run({ path: ".", regex: "foo(" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/regex parse error[\s\S]*unclosed group/);
  });

  it("caps the number of matches, with a note", async () => {
    await temp.write({ "many.txt": Array.from({ length: 50 }, (_, i) => `hit ${i}`).join("\n") });
    const result = await run({ path: "many.txt", regex: "^hit" }, 10);
    const text = textOf(result.content);
    expect(text).toContain("Showing the first 10 results; there are more.");
    expect(text.match(/^>/gm)).toHaveLength(10);
    expect(result.details).toMatchObject({ matches: 10, truncated: true });
  });

  it("marks gaps between non-adjacent matches in a file", async () => {
    await temp.write({ "gaps.txt": "m1\na\nb\nc\nd\nm2\n" });
    const text = textOf((await run({ path: "gaps.txt", regex: "^m" })).content);
    expect(text).toBe("Found 2 results in 1 file.\n\ngaps.txt\n>1 | m1\n 2 | a\n  ...\n 5 | d\n>6 | m2");
  });

  it("refuses paths outside the workspace and reports missing ones", async () => {
    expect((await run({ path: "/etc", regex: "root" })).isError).toBe(true);
    const missing = await run({ path: "nope", regex: "x" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing.content)).toContain("nope does not exist");
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIgnoreRules } from "../../../src/coding/ignore/ignore-rules.js";
import { compileRustRegex } from "../../../src/coding/search/rust-regex.js";
import { createSearchFilesTool, type SearchFilesInput } from "../../../src/coding/tools/search-files.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "../temp-workspace.js";
import { createTestToolContext } from "../tool-context.js";

const MISSING_RG = "/nonexistent/bin/rg";

describe("search_files built-in fallback", () => {
  let temp: TempWorkspace;
  const search = (input: SearchFilesInput, rgPath?: string, maxMatches?: number) =>
    createSearchFilesTool({ workspace: temp.workspace, rgPath, maxMatches }).execute(
      input,
      createTestToolContext().ctx,
    );

  beforeEach(async () => {
    temp = await createTempWorkspace({
      "src/a.ts":
        "import x from 'y';\n\nexport function alpha() {\n  return TODO;\n}\n// TODO two\n// TODO three\nend\n",
      "src/b.js": "// TODO: fix\nconst b = 1;\r\nTODO again\n",
      "src/nested/.gitignore": "gen/\n!keep.txt\n",
      "src/nested/gen/out.ts": "TODO generated\n",
      "src/nested/keep.txt": "TODO keep\n",
      "src/nested/deep/c.py": "def f():\n    pass  # TODO\n",
      "docs/readme.md": "nothing to see\nTODO at the end",
      "node_modules/dep/index.js": "// TODO in a dependency\n",
      ".gitignore": "ignored.txt\n*.bin\n",
      "ignored.txt": "TODO ignored\n",
      ".hidden/todo.txt": "TODO hidden but searched\n",
      "bin.dat": Buffer.from("TODO\u0000binary"),
      "gaps.txt": "m1\na\nb\nc\nd\nm2\n",
    });
  });
  afterEach(() => temp.remove());

  const cases: SearchFilesInput[] = [
    { path: ".", regex: "TODO" },
    { path: ".", regex: "TODO", file_pattern: "*.{ts,py}" },
    { path: "src", regex: "^\\s*(?P<kw>return|def)\\b" },
    { path: "src/a.ts", regex: "(?i)todo" },
    { path: ".", regex: "^m[[:digit:]]" },
    { path: "docs", regex: "\\pL+ at" },
    { path: ".", regex: "no_such_thing_\\d+" },
  ];

  for (const input of cases) {
    it(`matches ripgrep's output for ${JSON.stringify(input)}`, async () => {
      const viaRg = await search(input);
      const viaNode = await search(input, MISSING_RG);
      expect(viaRg.details?.engine).toBe("ripgrep");
      expect(viaNode.details?.engine).toBe("node");
      expect(textOf(viaNode.content)).toBe(textOf(viaRg.content));
      expect({ ...viaNode.details, engine: "x" }).toEqual({ ...viaRg.details, engine: "x" });
    });
  }

  it("caps matches the same way", async () => {
    await temp.write({ "many.txt": Array.from({ length: 50 }, (_, i) => `hit ${i}`).join("\n") });
    const viaNode = await search({ path: "many.txt", regex: "^hit" }, MISSING_RG, 10);
    expect(textOf(viaNode.content)).toContain("Showing the first 10 results; there are more.");
    expect(viaNode.details).toMatchObject({ matches: 10, truncated: true, engine: "node" });
  });

  it("reports an invalid regex", async () => {
    const result = await search({ path: ".", regex: "foo(" }, MISSING_RG);
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/^The search failed: regex parse error/);
  });

  it("removes matches in files blocked by the ignore file, and says how many", async () => {
    await temp.write({ ".bowlineignore": "src/b.js\nsecret/\n", "secret/k.txt": "TODO secret\n" });
    const ignore = createIgnoreRules(temp.root);
    for (const rgPath of [undefined, MISSING_RG]) {
      const result = await createSearchFilesTool({ workspace: temp.workspace, ignore, rgPath }).execute(
        { path: ".", regex: "TODO" },
        createTestToolContext().ctx,
      );
      const text = textOf(result.content);
      expect(text).not.toContain("src/b.js");
      expect(text).not.toContain("secret/k.txt");
      expect(text).toContain("src/a.ts");
      expect(text).toContain("(3 matches in files blocked by .bowlineignore not shown.)");
      expect(result.details).toMatchObject({ ignoredMatches: 3 });
    }
    const blocked = await createSearchFilesTool({ workspace: temp.workspace, ignore }).execute(
      { path: "secret", regex: "TODO" },
      createTestToolContext().ctx,
    );
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked.content)).toMatch(/^Access to secret is blocked by \.bowlineignore/);
  });
});

describe("compileRustRegex", () => {
  it("translates common Rust-only syntax", () => {
    expect(compileRustRegex("(?P<n>a+)b").exec("xaab")?.groups?.n).toBe("aa");
    expect(compileRustRegex("(?i)abc").test("ABC")).toBe(true);
    expect(compileRustRegex("\\Aab\\z").test("ab")).toBe(true);
    expect(compileRustRegex("[[:upper:]][[:digit:]]+").test("A12")).toBe(true);
    expect(compileRustRegex("\\pL\\p{N}").test("é1")).toBe(true);
    expect(() => compileRustRegex("a(")).toThrow(/^regex parse error/);
  });
});

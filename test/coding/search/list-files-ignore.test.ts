import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIgnoreRules } from "../../../src/coding/ignore/ignore-rules.js";
import { createListFilesTool } from "../../../src/coding/tools/list-files.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "../temp-workspace.js";
import { createTestToolContext } from "../tool-context.js";

describe("list_files with an ignore file", () => {
  let temp: TempWorkspace;
  const list = (
    input: { path: string; recursive?: boolean },
    extra: { rgPath?: string; maxEntries?: number } = {},
  ) =>
    createListFilesTool({
      workspace: temp.workspace,
      ignore: createIgnoreRules(temp.root),
      ...extra,
    }).execute(input, createTestToolContext().ctx);

  beforeEach(async () => {
    temp = await createTempWorkspace({
      ".bowlineignore": ".env\nsecrets/\n",
      ".env": "K=1",
      "secrets/key.pem": "k",
      "secrets/more/x.pem": "x",
      "src/a.ts": "a",
      "node_modules/dep/index.js": "d",
      "node_modules/dep/lib/util.js": "u",
    });
  });
  afterEach(() => temp.remove());

  it("marks blocked entries with a lock in a flat listing", async () => {
    const result = await list({ path: "." });
    expect(textOf(result.content).split("\n\n")[0]!.split("\n")).toEqual([
      "node_modules/",
      "🔒 secrets/",
      "src/",
      "🔒 .bowlineignore",
      "🔒 .env",
    ]);
    expect(textOf(result.content)).toContain("(Entries marked 🔒 are blocked by .bowlineignore");
    expect(result.details?.blocked).toEqual(["secrets/", ".bowlineignore", ".env"]);
  });

  for (const rgPath of [undefined, "/nonexistent/rg"]) {
    it(`marks blocked entries and does not enter blocked directories recursively (rg: ${rgPath ?? "bundled"})`, async () => {
      const result = await list({ path: ".", recursive: true }, rgPath === undefined ? {} : { rgPath });
      expect(textOf(result.content).split("\n\n")[0]!.split("\n")).toEqual([
        "🔒 secrets/",
        "src/",
        "src/a.ts",
        "🔒 .bowlineignore",
        "🔒 .env",
      ]);
      expect(result.details?.total).toBe(5);
    });

    it(`lists node_modules when asked for it directly (rg: ${rgPath ?? "bundled"})`, async () => {
      const result = await list(
        { path: "node_modules", recursive: true },
        rgPath === undefined ? {} : { rgPath },
      );
      expect(textOf(result.content).split("\n")).toEqual([
        "node_modules/dep/",
        "node_modules/dep/lib/",
        "node_modules/dep/lib/util.js",
        "node_modules/dep/index.js",
      ]);
    });
  }

  it("refuses to list a blocked directory", async () => {
    const result = await list({ path: "secrets", recursive: true });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/^Access to secrets is blocked by \.bowlineignore\./);
  });

  it("caps at maxEntries with a note, blocked entries included", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 250; i++) files[`many/f${String(i).padStart(3, "0")}.txt`] = "x";
    await temp.write(files);
    const result = await list({ path: ".", recursive: true });
    expect(result.details?.entries).toHaveLength(200);
    expect(textOf(result.content)).toContain(
      "(Showing 200 of 256 entries. List a subdirectory to see more.)",
    );
    expect(textOf(result.content)).toContain("🔒 secrets/");
  });
});

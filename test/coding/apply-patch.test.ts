import fs from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApplyPatchTool } from "../../src/coding/tools/apply-patch.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const APP = [
  "class Foo {",
  "  run() {",
  "    return 1;",
  "  }",
  "}",
  "class Bar {",
  "  run() {",
  "    return 1;",
  "  }",
  "}",
  "",
].join("\n");

describe("apply_patch", () => {
  let temp: TempWorkspace;
  const tool = () => createApplyPatchTool({ workspace: temp.workspace });
  const run = (input: string) => tool().execute({ input }, createTestToolContext().ctx);

  beforeEach(async () => {
    temp = await createTempWorkspace({ "app.ts": APP, "old.ts": "gone\n", "win.txt": "a\r\nb\r\nc\r\n" });
  });
  afterEach(() => temp.remove());

  it("adds, updates, deletes and moves files and reports line counts", async () => {
    const result = await run(
      patch(
        "*** Add File: src/new.ts",
        "+export const x = 1;",
        "+export const y = 2;",
        "*** Delete File: old.ts",
        "*** Update File: win.txt",
        "*** Move to: moved/win.txt",
        "@@",
        " a",
        "-b",
        "+B",
        " c",
        "*** End of File",
      ),
    );
    expect(result.isError).toBeFalsy();
    expect(await temp.read("src/new.ts")).toBe("export const x = 1;\nexport const y = 2;\n");
    await expect(fs.stat(`${temp.root}/old.ts`)).rejects.toThrow();
    await expect(fs.stat(`${temp.root}/win.txt`)).rejects.toThrow();
    expect(await temp.read("moved/win.txt")).toBe("a\r\nB\r\nc\r\n");
    expect(result.details?.files).toEqual([
      { path: "src/new.ts", action: "added", linesAdded: 2, linesRemoved: 0 },
      { path: "old.ts", action: "deleted", linesAdded: 0, linesRemoved: 1 },
      {
        path: "win.txt",
        action: "moved",
        movedTo: "moved/win.txt",
        linesAdded: 1,
        linesRemoved: 1,
        stages: ["exact"],
      },
    ]);
  });

  it("uses an @@ anchor to pick between identical contexts", async () => {
    const result = await run(
      patch("*** Update File: app.ts", "@@ class Bar {", "   run() {", "-    return 1;", "+    return 2;"),
    );
    expect(result.isError).toBeFalsy();
    expect(await temp.read("app.ts")).toBe(
      APP.replace("class Bar {\n  run() {\n    return 1;", "class Bar {\n  run() {\n    return 2;"),
    );
  });

  it("refuses identical contexts without an anchor", async () => {
    const result = await run(
      patch("*** Update File: app.ts", "@@", "   run() {", "-    return 1;", "+    return 2;"),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/Hunk 1 of app.ts: .*matches 2 places \(lines 2, 7\).*@@/);
    expect(await temp.read("app.ts")).toBe(APP);
  });

  it("tolerates context with shifted indentation and re-indents added lines", async () => {
    const result = await run(
      patch("*** Update File: app.ts", "@@ class Foo {", " run() {", "-  return 1;", "+  return 3;"),
    );
    expect(result.isError).toBeFalsy();
    expect(await temp.read("app.ts")).toContain("class Foo {\n  run() {\n    return 3;\n  }");
    expect(result.details?.files[0]?.stages).toEqual(["indentation"]);
  });

  it("is all or nothing: one bad hunk in any file changes no file", async () => {
    const result = await run(
      patch("*** Add File: fresh.ts", "+x", "*** Update File: app.ts", "@@", "-nothing like this", "+y"),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/No file was changed\. Hunk 1 of app.ts: .*not found/);
    await expect(fs.stat(`${temp.root}/fresh.ts`)).rejects.toThrow();
    expect(await temp.read("app.ts")).toBe(APP);
  });

  it("refuses paths outside the workspace and lists every path for approval", async () => {
    const input = patch("*** Add File: ../escape.ts", "+x");
    expect(tool().approvalPaths?.({ input })).toEqual(["../escape.ts"]);
    const moved = patch("*** Update File: a.ts", "*** Move to: b.ts", "@@", "-x", "+y");
    expect(tool().approvalPaths?.({ input: moved })).toEqual(["a.ts", "b.ts"]);
    const result = await run(input);
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toContain("outside the workspace");
  });

  it.each([
    ["no Begin", "*** Update File: app.ts\n*** End Patch", /does not start with/],
    ["no End", "*** Begin Patch\n*** Delete File: old.ts", /does not end with/],
    ["bad line", patch("*** Update File: app.ts", "@@", "?? what"), /must start with/],
    ["add without +", patch("*** Add File: n.ts", "x"), /does not start with "\+"/],
    ["empty", patch(), /changes no file/],
  ])("rejects a malformed patch: %s", async (_name, input, pattern) => {
    const result = await run(input);
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(pattern);
    expect(textOf(result.content)).toContain("*** Begin Patch");
  });

  it("refuses to add an existing file or update a missing one", async () => {
    expect(textOf((await run(patch("*** Add File: app.ts", "+x"))).content)).toContain("already exists");
    expect(textOf((await run(patch("*** Update File: none.ts", "@@", "+x"))).content)).toContain(
      "does not exist",
    );
  });

  it("reports which files changed when a write fails midway", async () => {
    await fs.mkdir(`${temp.root}/blocker`);
    await fs.writeFile(`${temp.root}/blocker/f.ts`, "x\n");
    await fs.chmod(`${temp.root}/blocker`, 0o500);
    try {
      const result = await run(patch("*** Add File: first.ts", "+1", "*** Delete File: blocker/f.ts"));
      if (process.getuid?.() === 0) return; // root ignores the permission
      expect(result.isError).toBe(true);
      expect(textOf(result.content)).toMatch(/WERE changed before the failure: first.ts/);
      expect(result.details?.partiallyApplied).toEqual(["first.ts"]);
    } finally {
      await fs.chmod(`${temp.root}/blocker`, 0o700);
    }
  });
});

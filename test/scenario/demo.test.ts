import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../support/cli.js";

describe("bowline demo", () => {
  it("solves the example task with a clearly labelled scripted model, leaving examples/ untouched", async () => {
    const before = readFileSync(join(REPO_ROOT, "examples/buggy-calculator/src/math.js"), "utf8");
    const run = await runCli(["demo"], { cwd: mkdtempSync(join(tmpdir(), "bowline-demo-test-")) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("SCRIPTED model");
    expect(run.stdout).toContain("✓ replace_in_file src/math.js");
    expect(run.stdout).toContain("✔ Done");
    const workspace = /Workspace: (.+)/.exec(run.stdout)![1]!;
    expect(readFileSync(join(workspace, "src/math.js"), "utf8")).toContain("return total / values.length;");
    expect(readFileSync(join(REPO_ROOT, "examples/buggy-calculator/src/math.js"), "utf8")).toBe(before);
  });
});

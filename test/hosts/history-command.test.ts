import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runHistoryCommand } from "../../src/hosts/cli/history.js";
import {
  apiRequest,
  assistant,
  entry,
  makeHome,
  say,
  user,
  writeTask,
} from "../coding/session/task-fixture.js";

let home: string;
let workspace: string;

beforeEach(() => {
  home = realpathSync(makeHome());
  workspace = join(home, "repo");
  mkdirSync(workspace);
  writeTask(home, "20250101-000000-aaaaaa", {
    meta: { workspace, task: "Fix the failing test" },
    api: [entry("e1", null, user("Fix the failing test")), entry("e2", "e1", assistant("Done."))],
    ui: [
      say("m1", { say: "task", text: "Fix the failing test" }, Date.parse("2025-01-01T10:00:00Z")),
      apiRequest(
        "m2",
        0,
        { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0123 },
        Date.parse("2025-01-01T10:00:05Z"),
      ),
      say("m3", { say: "completion_result", text: "Done." }, Date.parse("2025-01-01T10:00:06Z")),
    ],
  });
  writeTask(home, "20250102-000000-bbbbbb", {
    meta: { workspace: join(home, "elsewhere"), task: "Write the docs" },
    api: [entry("e1", null, user("Write the docs"), { ts: Date.parse("2025-01-02T10:00:00Z") })],
  });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Runs the command as the CLI would, capturing what it writes. */
async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runHistoryCommand(
    argv,
    workspace,
    { BOWLINE_HOME: home },
    {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
    },
  );
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

describe("bowline history", () => {
  it("lists this workspace's tasks in columns", async () => {
    const { code, stdout, stderr } = await run();
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const [header, row, ...rest] = stdout.split("\n");
    expect(header).toMatch(/^ID +UPDATED +TURNS +TOKENS +COST +STATUS +TITLE$/);
    expect(row).toMatch(
      /^20250101-000000-aaaaaa +\d{4}-\d\d-\d\d \d\d:\d\d +1 +1\.5k +\$0\.0123 +completed +Fix the failing test$/,
    );
    expect(rest).toEqual([]);
  });

  it("lists every workspace with --all, and as JSON with --json", async () => {
    const all = await run("--all");
    expect(all.stdout.split("\n")[0]).toContain("WORKSPACE");
    expect(all.stdout).toContain("Write the docs");
    expect(all.stdout.indexOf("Write the docs")).toBeLessThan(all.stdout.indexOf("Fix the failing test"));
    const json = await run("--json");
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ id: "20250101-000000-aaaaaa", turns: 1, tokens: 1500, costUsd: 0.0123 }),
    ]);
  });

  it("says when a workspace has no tasks", async () => {
    rmSync(join(home, "tasks"), { recursive: true });
    const { code, stdout } = await run();
    expect(code).toBe(0);
    expect(stdout).toContain("No tasks in this workspace yet");
  });

  it("deletes a task, and refuses a path or an unknown id", async () => {
    const traversal = await run("delete", "../repo");
    expect(traversal.code).toBe(1);
    expect(traversal.stderr).toContain('Not a task id: "../repo"');
    expect(statSync(workspace).isDirectory()).toBe(true);
    const unknown = await run("delete", "20990101-000000-000000");
    expect(unknown).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No task 20990101-000000-000000"),
    });
    const deleted = await run("delete", "20250101-000000-aaaaaa");
    expect(deleted).toMatchObject({ code: 0, stdout: "Deleted task 20250101-000000-aaaaaa." });
    expect((await run("--all")).stdout).not.toContain("Fix the failing test");
  });

  it("exports markdown to stdout and JSON to a private file", async () => {
    const markdown = await run("export", "20250101-000000-aaaaaa");
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/^# Fix the failing test\n/);
    expect(markdown.stdout).toContain("## Result\n\nDone.");

    writeFileSync(join(workspace, "out.json"), "old", { mode: 0o644 });
    const json = await run("export", "20250101-000000-aaaaaa", "--format", "json", "--output", "out.json");
    expect(json).toMatchObject({
      code: 0,
      stdout: `Exported task 20250101-000000-aaaaaa to ${join(workspace, "out.json")}.`,
    });
    expect(statSync(join(workspace, "out.json")).mode & 0o777).toBe(0o600);
    const exported = JSON.parse(readFileSync(join(workspace, "out.json"), "utf8"));
    expect(exported.history).toHaveLength(2);
    expect(exported.meta.id).toBe("20250101-000000-aaaaaa");
  });

  it("reports bad arguments with the usage and exit code 2", async () => {
    for (const argv of [
      ["export"],
      ["frobnicate", "x"],
      ["export", "x", "--format", "pdf"],
      ["--bogus"],
      ["delete", "x", "--json"],
    ]) {
      const { code, stderr } = await run(...argv);
      expect(code, argv.join(" ")).toBe(2);
      expect(stderr).toContain("Usage:");
    }
    expect((await run("export", "20990101-000000-000000")).code).toBe(1);
  });
});

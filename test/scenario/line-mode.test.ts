/**
 * `bowline "task"` without -p: progress on stdout, and each change asked on the terminal
 * (answered here through stdin) before it runs.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { API_KEYS, closeScenarios, complete, sentToolResults, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const writeNote = { toolCalls: [{ name: "write_to_file", input: { path: "NOTE.md", content: "hello\n" } }] };

async function runInteractive(answers: string) {
  const s = await startScenario("anthropic", [writeNote, complete("Wrote the note.")]);
  const run = await runCli(
    ["Write a note.", "--provider", "anthropic", "--base-url", s.server.url, "--model", "fake-model"],
    { cwd: s.repo, input: answers, env: { ANTHROPIC_API_KEY: API_KEYS.anthropic, BOWLINE_HOME: s.home } },
  );
  return { s, run };
}

describe("the line-mode interactive host", () => {
  it("asks before a change and applies it when approved", async () => {
    const { s, run } = await runInteractive("y\n");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Allow write_to_file NOTE.md?");
    // What it will write is shown before the question.
    expect(run.stderr).toMatch(/ {2}│ hello\nAllow write_to_file NOTE\.md\?/);
    expect(readFileSync(join(s.repo, "NOTE.md"), "utf8")).toBe("hello\n");
    expect(run.stdout).toContain("▶ Task: Write a note.");
    expect(run.stdout).toContain("✓ write_to_file NOTE.md");
    expect(run.stdout).toContain("Wrote the note.");
  });

  it("refuses the change when denied, and passes typed feedback to the model", async () => {
    const { s, run } = await runInteractive("please write README.md instead\n");
    expect(run.code).toBe(0);
    expect(existsSync(join(s.repo, "NOTE.md"))).toBe(false);
    expect(run.stdout).toContain("⊘ write_to_file NOTE.md (denied)");
    const result = sentToolResults(s.server.requests[1]!)[0]!.text;
    expect(result).toContain("The user denied this operation");
    expect(result).toContain("please write README.md instead");
  });
});

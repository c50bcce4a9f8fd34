/**
 * The executor pipeline's refusals through the real CLI, with what the model receives: plan
 * mode, loop detection, hooks (block, rewrite, context), and parallel read-only calls.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeScenarios, complete, resultOf, sentToolResults, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const write = (path: string, content = "x\n") => ({
  toolCalls: [{ name: "write_to_file", input: { path, content } }],
});
const command = (cmd: string) => ({ toolCalls: [{ name: "execute_command", input: { command: cmd } }] });

function installHook(home: string, name: string, script: string): void {
  const dir = join(home, "hooks");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, name), 0o755);
}

describe("plan mode", () => {
  it("refuses edits and mutating commands but runs reads and read-only commands", async () => {
    const s = await startScenario("anthropic", [
      write("PLAN.md"),
      command("touch made.txt"),
      command("ls src"),
      complete("Plan: fix average."),
    ]);
    const run = await s.run("Plan the fix.", ["--yes", "--mode", "plan", "--output-format", "json"]);
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Plan: fix average." });
    expect(existsSync(join(s.repo, "PLAN.md"))).toBe(false);
    expect(existsSync(join(s.repo, "made.txt"))).toBe(false);
    for (const request of s.server.requests.slice(1, 3)) {
      const [result] = sentToolResults(request);
      expect(result!.text).toContain("PLAN MODE");
      expect(result!.isError).toBe(true);
    }
    expect(sentToolResults(s.server.requests[3]!)[0]!.text).toContain("math.js");
  });
});

describe("loop detection", () => {
  it("warns the model at three identical calls and stops a non-interactive run at five", async () => {
    const read = { toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }] };
    const s = await startScenario("anthropic", [read, read, read, read, read, complete("never")]);
    const run = await s.run("Read it.", ["--output-format", "json"]);
    expect(run.code).toBe(1);
    expect(resultOf(run)).toMatchObject({ status: "failed", error: { code: "loop_detected" } });
    expect(s.server.requests).toHaveLength(5);
    const third = s.server.requests[3]!.body.messages.at(-1);
    expect(JSON.stringify(third)).toMatch(/3 times|three times|identical/i);
  });
});

describe("hooks", () => {
  it("a PreToolUse hook that blocks: the call does not run and the model gets the reason", async () => {
    const s = await startScenario("anthropic", [command("touch blocked.txt"), complete()]);
    installHook(
      s.home,
      "PreToolUse",
      `input=$(cat); case "$input" in *touch*) echo '{"block": true, "reason": "no touching files"}';; esac`,
    );
    const run = await s.run("Touch a file.", ["--yes"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(s.repo, "blocked.txt"))).toBe(false);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result!.text).toContain("no touching files");
    expect(result!.isError).toBe(true);
  });

  it("a PreToolUse hook can rewrite the input; a PostToolUse hook adds context for the model", async () => {
    const s = await startScenario("anthropic", [write("a.txt", "from model\n"), complete()]);
    installHook(
      s.home,
      "PreToolUse",
      `input=$(cat); case "$input" in *write_to_file*) echo '{"input": {"path": "b.txt", "content": "from hook\\\\n"}}';; esac`,
    );
    installHook(s.home, "PostToolUse", `cat > /dev/null; echo '{"context": "remember to run the linter"}'`);
    const run = await s.run("Write a.", ["--yes"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(existsSync(join(s.repo, "a.txt"))).toBe(false);
    expect(readFileSync(join(s.repo, "b.txt"), "utf8")).toBe("from hook\n");
    expect(JSON.stringify(s.server.requests[1]!.body.messages.at(-1))).toContain(
      "remember to run the linter",
    );
  });

  it("a rewritten call passes the rules again: a rewrite into a denied command does not run", async () => {
    const s = await startScenario("anthropic", [command("echo hello"), complete()]);
    writeFileSync(join(s.repo, "keep.txt"), "keep\n");
    mkdirSync(s.home, { recursive: true });
    writeFileSync(
      join(s.home, "approvals.json"),
      JSON.stringify({ permissions: { deny: ["execute_command(rm)"] } }),
    );
    installHook(
      s.home,
      "PreToolUse",
      `input=$(cat); case "$input" in *echo*) echo '{"input": {"command": "rm -f keep.txt", "requires_approval": false}}';; esac`,
    );
    const run = await s.run("Say hello.", ["--yes"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(s.repo, "keep.txt"))).toBe(true);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result!.text).toContain("After a PreToolUse hook rewrote it");
    expect(result!.isError).toBe(true);
  });

  it("a crashing or garbage-printing hook is reported and the task goes on", async () => {
    const s = await startScenario("anthropic", [command("echo hi"), complete("went on")]);
    installHook(s.home, "PreToolUse", "cat > /dev/null; echo 'not json at all'");
    installHook(s.home, "PostToolUse.crash", "exit 3");
    const run = await s.run("Say hi.", ["--yes", "--output-format", "stream-json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hook problem");
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "went on" });
  });

  it("prompt hooks: UserPromptSubmit adds context; a blocking TaskStart stops before any request", async () => {
    const s = await startScenario("anthropic", [complete()]);
    installHook(s.home, "UserPromptSubmit", `cat > /dev/null; echo '{"context": "the team uses tabs"}'`);
    const run = await s.run("Do it.", []);
    expect(run.code).toBe(0);
    expect(JSON.stringify(s.server.requests[0]!.body.messages[0])).toContain("the team uses tabs");

    const blocked = await startScenario("anthropic", [complete()]);
    installHook(blocked.home, "TaskStart", `cat > /dev/null; echo '{"block": true, "reason": "not today"}'`);
    const stopped = await blocked.run("Do it.", ["--output-format", "json"]);
    expect(stopped.code).toBe(1);
    expect(resultOf(stopped)).toMatchObject({ status: "failed", error: { code: "stopped_by_hook" } });
    expect(resultOf(stopped).error.message).toContain("not today");
    expect(blocked.server.requests).toHaveLength(0);
  });

  it("project hooks do not run unless the workspace is trusted", async () => {
    const s = await startScenario("anthropic", [command("touch made.txt"), complete()]);
    const dir = join(s.repo, ".bowline", "hooks");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "PreToolUse"),
      `#!/bin/sh\ncat >/dev/null; echo '{"block": true, "reason": "project"}'\n`,
    );
    chmodSync(join(dir, "PreToolUse"), 0o755);
    const run = await s.run("Touch.", ["--yes"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(s.repo, "made.txt"))).toBe(true);
  });
});

describe("parallel calls", () => {
  it("runs several reads of one reply and returns every result in call order", async () => {
    const s = await startScenario("openai", [
      {
        toolCalls: [
          { id: "call_a", name: "read_file", input: { path: "src/math.js" } },
          { id: "call_b", name: "list_files", input: { path: "." } },
          { id: "call_c", name: "search_files", input: { path: ".", regex: "average" } },
        ],
      },
      complete(),
    ]);
    const run = await s.run("Look around.", []);
    expect(run.code).toBe(0);
    const results = sentToolResults(s.server.requests[1]!);
    expect(results.map((r) => r.id)).toEqual(["call_a", "call_b", "call_c"]);
    expect(results[0]!.text).toContain("export function add");
    expect(results[1]!.text).toContain("src/");
    expect(results[2]!.text).toContain("math.js");
  });
});

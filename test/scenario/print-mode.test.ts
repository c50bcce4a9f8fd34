/**
 * Print mode through the real CLI: configuration and usage errors, where the task comes from,
 * the output formats, and what runs without a person to approve it.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, parseJsonLines, runCli } from "../support/cli.js";
import { closeScenarios, complete, resultOf, sentToolResults, startScenario } from "./scenario.js";

afterEach(closeScenarios);

describe("usage and configuration errors", () => {
  it("with no model configured, exits 2 explaining the variables and flags, printing nothing on stdout", async () => {
    const { repo } = makeWorkspace();
    const home = mkdtempSync(join(tmpdir(), "bowline-home-"));
    const run = await runCli(["-p", "Fix the bug."], { cwd: repo, env: { BOWLINE_HOME: home } });

    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("no model configured");
    for (const hint of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "--provider", "--base-url", "--model"]) {
      expect(run.stderr).toContain(hint);
    }
    // No task was started, so nothing was stored.
    expect(existsSync(join(home, "tasks"))).toBe(false);
  });

  it("with -p and no task (empty stdin), exits 2 before contacting any model", async () => {
    const s = await startScenario("anthropic", [complete()]);
    const run = await s.run(undefined, [], { input: "" });

    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("no task given");
    expect(s.server.requests).toHaveLength(0);
  });

  it("with a whitespace-only task on stdin, exits 2 the same way", async () => {
    const s = await startScenario("anthropic", [complete()]);
    const run = await s.run(undefined, [], { input: "  \n\n" });

    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no task given");
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("where the task comes from and what is printed", () => {
  it("reads the task from stdin", async () => {
    const s = await startScenario("anthropic", [complete("Explained.")]);
    const run = await s.run(undefined, [], { input: "explain src/math.js\n" });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Explained.\n");
    const firstUser = JSON.stringify(s.server.requests[0]!.body.messages[0]);
    expect(firstUser).toContain("<task>\\nexplain src/math.js\\n</task>");
  });

  it("--output-format json prints one JSON object with status, result, usage and task id", async () => {
    const s = await startScenario("anthropic", [
      {
        toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }],
        usage: { inputTokens: 100, outputTokens: 7 },
      },
      { ...complete("All good."), usage: { inputTokens: 200, outputTokens: 5 } },
    ]);
    const run = await s.run("Check the code.", ["--output-format", "json"]);

    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!);
    expect(result).toMatchObject({
      type: "result",
      status: "completed",
      result: "All good.",
      turns: 2,
      usage: { inputTokens: 300, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    expect(result.taskId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(existsSync(join(s.home, "tasks", result.taskId, "api_history.jsonl"))).toBe(true);
  });

  it("--output-format text prints only the result on stdout", async () => {
    const s = await startScenario("anthropic", [
      { text: "Reading first.", toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }] },
      complete("The bug is in average()."),
    ]);
    const run = await s.run("Find the bug.", ["--output-format", "text"]);

    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The bug is in average().\n");
    expect(run.stderr).toBe("");
  });
});

describe("approvals without a person", () => {
  const writeCall = {
    toolCalls: [
      { id: "toolu_write", name: "write_to_file", input: { path: "NOTES.md", content: "hello\n" } },
    ],
  };

  it("denies a write without --yes: nothing is written and the model is told how to allow it", async () => {
    const s = await startScenario("anthropic", [writeCall, complete("Could not write.")]);
    const run = await s.run("Write notes.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    expect(existsSync(join(s.repo, "NOTES.md"))).toBe(false);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result).toMatchObject({ id: "toolu_write", isError: true });
    expect(result!.text).toContain("Denied: write_to_file needs approval");
    expect(result!.text).toContain("--yes");
    expect(result!.text).toContain("--allow write_to_file");
    const denied = parseJsonLines(run.stdout).filter(
      (e) => e.type === "ui_message_updated" && e.message.payload.status === "denied",
    );
    expect(denied.map((e) => e.message.payload.tool)).toEqual(["write_to_file"]);
  });

  it("runs a write allowed by --allow write_to_file", async () => {
    const s = await startScenario("anthropic", [writeCall, complete()]);
    const run = await s.run("Write notes.", ["--allow", "write_to_file"]);

    expect(run.code).toBe(0);
    expect(readFileSync(join(s.repo, "NOTES.md"), "utf8")).toBe("hello\n");
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result!.isError).toBe(false);
  });

  it("runs the command an execute_command rule allows, and denies one chained onto it", async () => {
    const s = await startScenario("anthropic", [
      { toolCalls: [{ id: "toolu_test", name: "execute_command", input: { command: "node --test" } }] },
      {
        toolCalls: [
          { id: "toolu_chain", name: "execute_command", input: { command: "node --test && touch pwned" } },
        ],
      },
      complete(),
    ]);
    const run = await s.run("Run the tests.", ["--allow", "execute_command(node --test)"]);

    expect(run.code).toBe(0);
    const [ran] = sentToolResults(s.server.requests[1]!);
    expect(ran!.id).toBe("toolu_test");
    // The buggy example has one failing test: the command really ran.
    expect(ran!.text).toContain("Command failed with exit code 1");
    expect(ran!.text).toMatch(/fail 1/);
    const [chained] = sentToolResults(s.server.requests[2]!);
    expect(chained).toMatchObject({ id: "toolu_chain", isError: true });
    expect(chained!.text).toContain("Denied: execute_command needs approval");
    expect(existsSync(join(s.repo, "pwned"))).toBe(false);
  });
});

describe("the result of a failed run in each format", () => {
  it("text format puts the failure on stderr and nothing on stdout", async () => {
    const s = await startScenario("anthropic", [
      { fault: { kind: "http", status: 400, message: "bad request" } },
    ]);
    const run = await s.run("Do it.");

    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("bowline: task failed (provider_error)");
    expect(run.stderr).toContain("HTTP 400");
  });

  it("stream-json ends with a result carrying the error code", async () => {
    const s = await startScenario("anthropic", [
      { fault: { kind: "http", status: 400, message: "bad request" } },
    ]);
    const run = await s.run("Do it.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(1);
    expect(resultOf(run)).toMatchObject({ status: "failed", error: { code: "provider_error" } });
    const fatal = parseJsonLines(run.stdout).filter((e) => e.type === "error");
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({ code: "provider_error", fatal: true });
  });
});

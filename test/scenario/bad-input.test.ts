/**
 * Bad input from the model, through the real CLI in print mode: each mistake reaches the model
 * as an error tool result paired with its call, nothing outside the workspace is touched, and
 * the task carries on to completion.
 */
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { processesWith } from "../coding/safety/command-modes.js";
import { parseJsonLines } from "../support/cli.js";
import {
  closeScenarios,
  complete,
  type Format,
  resultOf,
  sentToolCallIds,
  sentToolResults,
  startScenario,
} from "./scenario.js";

const PASSWD_LINE = readFileSync("/etc/passwd", "utf8").split("\n")[0]!;

afterEach(closeScenarios);

beforeAll(() => {
  expect(PASSWD_LINE).toMatch(/^root:/);
});

describe("paths that escape the workspace", () => {
  it.each([
    ["a relative path climbing out", "../../etc/passwd"],
    ["an absolute path", "/etc/passwd"],
    ["a symlink in the repository pointing outside", "notes.txt"],
  ])("%s is refused, nothing outside is read, and the task completes", async (_, path) => {
    const s = await startScenario("anthropic", [
      { toolCalls: [{ id: "toolu_escape", name: "read_file", input: { path } }] },
      complete("Could not read it."),
    ]);
    symlinkSync("/etc/passwd", join(s.repo, "notes.txt"));
    const run = await s.run("Show me the password file.", ["--output-format", "stream-json"]);

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({
      type: "result",
      status: "completed",
      result: "Could not read it.",
    });
    expect(s.server.requests).toHaveLength(2);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result).toMatchObject({ id: "toolu_escape", isError: true });
    expect(result!.text).toContain(`The path "${path}" is outside the workspace`);
    // Nothing of the file reached the model or the output.
    const sent = JSON.stringify(s.server.requests[1]!.body);
    expect(sent).not.toContain("root:x:0");
    expect(sent).not.toContain(PASSWD_LINE);
    expect(run.stdout).not.toContain(PASSWD_LINE);
  });
});

describe.each<Format>(["anthropic", "openai"])("tool calls the loop cannot run (%s)", (format) => {
  it("an unknown tool gets an error result naming the available tools, paired with its id", async () => {
    const s = await startScenario(format, [
      { text: "Cleaning up.", toolCalls: [{ id: "call_unknown_1", name: "delete_everything", input: {} }] },
      complete(),
    ]);
    const run = await s.run("Tidy the repo.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    expect(resultOf(run).status).toBe("completed");
    const next = s.server.requests[1]!;
    expect(sentToolCallIds(next)).toEqual(["call_unknown_1"]);
    const results = sentToolResults(next);
    expect(results.map((r) => r.id)).toEqual(["call_unknown_1"]);
    const text = results[0]!.text;
    expect(text).toContain('Unknown tool "delete_everything"');
    for (const name of ["read_file", "write_to_file", "execute_command", "attempt_completion"]) {
      expect(text).toContain(name);
    }
    if (format === "anthropic") expect(results[0]!.isError).toBe(true);
  });

  it("malformed JSON arguments get an error result and the task goes on", async () => {
    const s = await startScenario(format, [
      { toolCalls: [{ id: "call_bad_json", name: "read_file", rawArguments: '{"path": "src/math.js"' }] },
      { toolCalls: [{ id: "call_good", name: "read_file", input: { path: "src/math.js" } }] },
      complete(),
    ]);
    const run = await s.run("Read the math module.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    expect(s.server.requests).toHaveLength(3);
    const [bad] = sentToolResults(s.server.requests[1]!);
    expect(bad!.id).toBe("call_bad_json");
    expect(bad!.text).toContain("The arguments of read_file were not valid JSON");
    expect(sentToolCallIds(s.server.requests[1]!)).toEqual(["call_bad_json"]);
    // The retry with good arguments ran for real.
    const [good] = sentToolResults(s.server.requests[2]!);
    expect(good).toMatchObject({ id: "call_good" });
    expect(good!.text).toContain("export function average(values)");
    // The event stream shows the failed call as an error.
    const toolErrors = parseJsonLines(run.stdout).filter(
      (e) =>
        e.type === "ui_message_added" &&
        e.message.payload.say === "tool" &&
        e.message.payload.status === "error",
    );
    expect(toolErrors.map((e) => e.message.payload.callId)).toEqual(["call_bad_json"]);
  });
});

describe("arguments that do not match the schema", () => {
  it("wrong types and missing fields are listed by name, and the task goes on", async () => {
    const s = await startScenario("anthropic", [
      { toolCalls: [{ id: "toolu_types", name: "read_file", input: { path: 42, start_line: "one" } }] },
      { toolCalls: [{ id: "toolu_missing", name: "write_to_file", input: { path: "notes.md" } }] },
      complete(),
    ]);
    const run = await s.run("Write some notes.", ["--output-format", "json"]);

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).status).toBe("completed");
    const [types] = sentToolResults(s.server.requests[1]!);
    expect(types).toMatchObject({ id: "toolu_types", isError: true });
    expect(types!.text).toContain("Invalid arguments for read_file");
    expect(types!.text).toMatch(/^- path: /m);
    expect(types!.text).toMatch(/^- start_line: /m);
    const [missing] = sentToolResults(s.server.requests[2]!);
    expect(missing).toMatchObject({ id: "toolu_missing", isError: true });
    expect(missing!.text).toContain("Invalid arguments for write_to_file");
    expect(missing!.text).toMatch(/^- content: /m);
    expect(missing!.text).not.toMatch(/^- path: /m);
    // Validation happens before anything runs: no file was written.
    expect(existsSync(join(s.repo, "notes.md"))).toBe(false);
  });
});

describe("a command that outlives its timeout", () => {
  it("is stopped with every process it started, and the model is told it timed out", async () => {
    // Found by name in /proc: a pid printed inside the sandbox is not the host's.
    const token = `bowline-outlived-${process.pid}-${Date.now()}`;
    const s = await startScenario("anthropic", [
      {
        toolCalls: [
          {
            id: "toolu_sleep",
            name: "execute_command",
            input: { command: `(exec -a ${token} sleep 30) & wait` },
          },
        ],
      },
      complete("The command hangs."),
    ]);
    const started = Date.now();
    const run = await s.run("Run the slow thing.", [
      "--yes",
      "--command-timeout",
      "1",
      "--output-format",
      "json",
    ]);
    const elapsed = Date.now() - started;

    expect(run.code).toBe(0);
    expect(elapsed).toBeLessThan(10_000);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result).toMatchObject({ id: "toolu_sleep", isError: true });
    expect(result!.text).toContain("Command timed out after 1s");
    expect(processesWith(token)).toEqual([]);
  });
});

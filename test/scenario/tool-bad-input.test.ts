/**
 * Tool inputs the tools must refuse or tame, through the real CLI: paths blocked by
 * .bowlineignore (read, list, search, command), a binary file, an ambiguous SEARCH, a command
 * blocked waiting for input, and a command with runaway output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeScenarios,
  complete,
  type Format,
  resultOf,
  sentToolResults,
  startScenario,
} from "./scenario.js";

afterEach(closeScenarios);

const call = (name: string, input: unknown) => ({ toolCalls: [{ name, input }] });
const SECRET = "hunter2-zebra-7731";

describe.each<Format>(["anthropic", "openai"])(".bowlineignore (%s)", (format) => {
  it("blocks reading, marks listing, hides search matches and refuses commands", async () => {
    const s = await startScenario(format, [
      call("read_file", { path: "secret.txt" }),
      call("list_files", { path: "." }),
      call("search_files", { path: ".", regex: "zebra" }),
      call("execute_command", { command: "cat secret.txt" }),
      complete("Worked around it."),
    ]);
    writeFileSync(join(s.repo, ".bowlineignore"), "secret.txt\n");
    writeFileSync(join(s.repo, "secret.txt"), `password: ${SECRET}\n`);
    writeFileSync(join(s.repo, "notes.txt"), "a zebra crossing\n");
    const run = await s.run("Find the password.", ["--yes", "--output-format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Worked around it." });
    const results = s.server.requests.slice(1).map((request) => sentToolResults(request)[0]!);
    const errorFlag = format === "anthropic" ? true : undefined;

    expect(results[0]!.text).toContain("Access to secret.txt is blocked by .bowlineignore");
    expect(results[0]!.isError).toBe(errorFlag);
    expect(results[1]!.text).toContain("🔒 secret.txt");
    expect(results[1]!.text).toMatch(/^notes\.txt$/m);
    expect(results[2]!.text).toContain("notes.txt");
    expect(results[2]!.text).toContain("a zebra crossing");
    expect(results[2]!.text).not.toContain("secret.txt");
    expect(results[3]!.text).toContain("The command uses secret.txt, which is blocked by .bowlineignore");
    expect(results[3]!.isError).toBe(errorFlag);

    for (const request of s.server.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET);
    expect(run.stdout).not.toContain(SECRET);
  });
});

// BUG: commandMentionsIgnored resolves every word against the workspace root and ignores a
// leading `cd`, so `cd src && cat ../secret.txt` (the form execute_command's own description
// recommends for changing directory) runs and returns the blocked file's content.
it("a command reaching a blocked file through `cd dir && ...` is refused", async () => {
  const s = await startScenario("anthropic", [
    call("execute_command", { command: "cd src && cat ../secret.txt" }),
    complete(),
  ]);
  writeFileSync(join(s.repo, ".bowlineignore"), "secret.txt\n");
  writeFileSync(join(s.repo, "secret.txt"), `password: ${SECRET}\n`);
  const run = await s.run("Find the password.", ["--yes"]);
  expect(run.code).toBe(0);
  const [result] = sentToolResults(s.server.requests[1]!);
  expect(result!.text).not.toContain(SECRET);
  expect(result!.text).toContain("blocked by .bowlineignore");
});

describe("files the edit and read tools refuse", () => {
  it("reading a binary file gives a clear error", async () => {
    const s = await startScenario("anthropic", [call("read_file", { path: "blob.bin" }), complete()]);
    writeFileSync(join(s.repo, "blob.bin"), Buffer.from([0x42, 0x4c, 0, 0, 0, 0x4f, 0x42, 0]));
    const run = await s.run("Read the blob.", []);
    expect(run.code).toBe(0);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain("blob.bin looks like a binary file (it contains NUL bytes)");
  });

  it.each<Format>(["anthropic", "openai"])(
    "an ambiguous SEARCH is refused naming both lines, and nothing is written (%s)",
    async (format) => {
      const original = "const x = 1;\nconst y = 2;\nconst x = 1;\n";
      const diff = "------- SEARCH\nconst x = 1;\n=======\nconst x = 3;\n+++++++ REPLACE";
      const s = await startScenario(format, [call("replace_in_file", { path: "dup.js", diff }), complete()]);
      writeFileSync(join(s.repo, "dup.js"), original);
      const run = await s.run("Change x.", ["--yes"]);
      expect(run.code).toBe(0);
      const [result] = sentToolResults(s.server.requests[1]!);
      expect(result!.text).toContain("the SEARCH text matches 2 places");
      expect(result!.text).toContain("lines 1, 3");
      if (format === "anthropic") expect(result!.isError).toBe(true);
      expect(readFileSync(join(s.repo, "dup.js"), "utf8")).toBe(original);
    },
  );
});

describe("commands that misbehave", () => {
  it("a command waiting for input is reported within seconds, not at the timeout", async () => {
    const s = await startScenario("anthropic", [
      call("execute_command", { command: "mkfifo in.fifo && echo asking && read x < in.fifo" }),
      complete("It wanted input."),
    ]);
    const started = Date.now();
    const run = await s.run("Run it.", ["--yes", "--command-timeout", "30", "--output-format", "json"]);
    const elapsed = Date.now() - started;
    expect(run.code).toBe(0);
    expect(elapsed).toBeLessThan(12_000);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain("The command appears to be waiting for input");
    expect(result!.text).toContain("asking");
    expect(result!.text).not.toContain("timed out");
  });

  it.each([
    ["a big burst", "yes | head -c 5000000", [], "Command exited with code 0"],
    [
      "an endless stream stopped by the timeout",
      "yes",
      ["--command-timeout", "2"],
      "Command timed out after 2s",
    ],
  ])(
    "runaway output (%s) comes back truncated with a note",
    async (_, command, extra, outcome) => {
      const s = await startScenario("anthropic", [
        call("execute_command", { command }),
        complete("Too long."),
      ]);
      const run = await s.run("Print a lot.", ["--yes", "--output-format", "json", ...extra], {
        timeoutMs: 30_000,
      });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(resultOf(run)).toMatchObject({ status: "completed", result: "Too long." });
      const [result] = sentToolResults(s.server.requests[1]!);
      expect(result!.text).toContain(outcome);
      expect(result!.text).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
      expect(result!.text.length).toBeLessThan(40_000);
      expect(result!.text).toMatch(/^y$/m);
      expect(JSON.stringify(s.server.requests[1]!.body).length).toBeLessThan(200_000);
    },
    40_000,
  );
});

/**
 * Checkpoints through the CLI: a task's edits and shell-made changes are checkpointed; `bowline
 * checkpoints restore` brings back the files, the conversation, or both.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { closeScenarios, complete, readJournalLines, resultOf, startScenario } from "./scenario.js";

afterEach(closeScenarios);

describe("checkpoints of a task", () => {
  it("capture edits and shell changes; restore --mode both rewinds files and conversation", async () => {
    const original = "export const answer = 41;\n";
    const s = await startScenario("anthropic", [
      { toolCalls: [{ name: "write_to_file", input: { path: "src/answer.js", content: original } }] },
      { toolCalls: [{ name: "execute_command", input: { command: "echo made by a shell > shell.txt" } }] },
      complete("Changed two things."),
      complete("Continued after the restore."),
    ]);
    const run = await s.run("Change things.", ["--yes", "--output-format", "json"]);
    expect(run.code).toBe(0);
    const taskId = resultOf(run).taskId;
    expect(readFileSync(join(s.repo, "shell.txt"), "utf8")).toBe("made by a shell\n");

    const env = { BOWLINE_HOME: s.home };
    const listed = await runCli(["checkpoints", "list", "--json"], { cwd: s.repo, env });
    expect(listed.code).toBe(0);
    const checkpoints = JSON.parse(listed.stdout);
    expect(checkpoints.map((c: any) => c.kind)).toEqual(["baseline", "step", "step"]);
    expect(checkpoints[1].files).toEqual([
      expect.objectContaining({ path: "src/answer.js", status: "added" }),
    ]);
    expect(checkpoints[2].files).toEqual([expect.objectContaining({ path: "shell.txt", status: "added" })]);
    // The UI journal says which conversation entry each checkpoint follows.
    const marks = readJournalLines(s.home, "ui_messages.jsonl").records.filter(
      (r) => r.message.payload?.say === "checkpoint",
    );
    expect(marks.map((r) => r.message.payload.checkpointId)).toEqual(checkpoints.map((c: any) => c.id));

    const restored = await runCli(["checkpoints", "restore", checkpoints[1].id, "--mode", "both"], {
      cwd: s.repo,
      env,
    });
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(readFileSync(join(s.repo, "src/answer.js"), "utf8")).toBe(original);
    expect(existsSync(join(s.repo, "shell.txt"))).toBe(false);

    // The conversation continues from the first step: the command and its result are gone.
    const resumed = await s.run("Go on.", ["--continue", "--yes", "--output-format", "json"]);
    expect(resultOf(resumed)).toMatchObject({ status: "completed", taskId });
    const sent = JSON.stringify(s.server.requests.at(-1)!.body.messages);
    expect(sent).toContain("write_to_file");
    expect(sent).not.toContain("made by a shell");
  }, 30_000);
});

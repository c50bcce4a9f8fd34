/**
 * Sessions outlive the process: a task killed mid-command resumes with `-p --continue`, the
 * running call reported as interrupted (never re-run); a finished task continues with a new
 * message; `--fork` starts a new task from an earlier point; `bowline history` lists them.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import type { RecordedRequest, ScriptedTurn } from "../support/fake-model-server.js";
import { closeScenarios, complete, resultOf, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const lastUserText = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1));

describe("a task killed while a command runs", () => {
  it("resumes with -p --continue: the call is reported interrupted, not run again", async () => {
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ name: "execute_command", input: { command: "echo ran >> steps.log; sleep 4" } }] },
      complete("Finished after the resume."),
    ];
    const s = await startScenario("anthropic", (_req, i) => turns[i]);
    const killed = await s.run("Record a step.", ["--yes", "--output-format", "stream-json"], {
      timeoutMs: 15_000,
      onSpawn: (child: ChildProcess) => {
        const check = setInterval(() => {
          try {
            if (readFileSync(join(s.repo, "steps.log"), "utf8")) {
              clearInterval(check);
              child.kill("SIGKILL");
            }
          } catch {
            // Not written yet.
          }
        }, 50);
      },
    });
    expect(killed.signal).toBe("SIGKILL");

    const resumed = await s.run(undefined, ["--continue", "--yes", "--output-format", "json"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resultOf(resumed)).toMatchObject({ status: "completed", result: "Finished after the resume." });
    expect(readFileSync(join(s.repo, "steps.log"), "utf8")).toBe("ran\n");
    expect(s.server.requests).toHaveLength(2);
    const sent = lastUserText(s.server.requests[1]!);
    expect(sent).toContain("interrupted");
    expect(sent).toContain("resumed after");
    // The resumed request carries the whole conversation: the task, the call, its result.
    const roles = s.server.requests[1]!.body.messages.map((m: any) => m.role);
    expect(roles).toEqual(["user", "assistant", "user"]);
  }, 30_000);
});

describe("a finished task", () => {
  it("continues with a new message, in the same task and journal", async () => {
    const turns: ScriptedTurn[] = [complete("First answer."), complete("Second answer.")];
    const s = await startScenario("openai", (_req, i) => turns[i]);
    const first = await s.run("Answer once.", ["--output-format", "json"]);
    const second = await s.run("And once more, please.", ["--continue", "--output-format", "json"]);

    expect(resultOf(second)).toMatchObject({ status: "completed", result: "Second answer." });
    expect(resultOf(second).taskId).toBe(resultOf(first).taskId);
    const messages = s.server.requests[1]!.body.messages;
    expect(JSON.stringify(messages)).toContain("Answer once.");
    expect(JSON.stringify(messages.at(-1))).toContain("And once more, please.");
    // No two user messages in a row: the completion result and the new message are one.
    const roles = messages.filter((m: any) => m.role !== "system").map((m: any) => m.role);
    for (let i = 1; i < roles.length; i++) expect(`${roles[i - 1]} ${roles[i]}`).not.toBe("user user");
  });

  it("forks from an earlier entry into a new task; history lists both", async () => {
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }] },
      complete("Original."),
      complete("Forked."),
    ];
    const s = await startScenario("anthropic", (_req, i) => turns[i]);
    const original = resultOf(await s.run("Read then answer.", ["--output-format", "json"]));
    // e1 task, e2 the read_file call, e3 its result, e4 the completion call, e5 its result.
    const fork = await s.run("Take another direction.", [
      "--fork",
      original.taskId,
      "--at",
      "e3",
      "--output-format",
      "json",
    ]);

    expect(resultOf(fork)).toMatchObject({ status: "completed", result: "Forked." });
    expect(resultOf(fork).taskId).not.toBe(original.taskId);
    const sent = s.server.requests[2]!.body.messages;
    expect(sent).toHaveLength(3);
    expect(JSON.stringify(sent[2])).toContain("Take another direction.");
    expect(JSON.stringify(sent[2])).toContain("tool_result");

    const history = await runCli(["history", "--json"], { cwd: s.repo, env: { BOWLINE_HOME: s.home } });
    expect(history.code).toBe(0);
    const ids = JSON.parse(history.stdout).map((t: any) => t.id);
    expect(ids).toEqual(expect.arrayContaining([original.taskId, resultOf(fork).taskId]));
  });
});

describe("nothing to continue", () => {
  it("says so and exits 2", async () => {
    const s = await startScenario("anthropic", []);
    const run = await s.run(undefined, ["--continue"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no task to continue/);
  });
});

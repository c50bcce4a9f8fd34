/**
 * Rules, skills, plan_mode_respond and the completion guard, through the real CLI.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeScenarios, complete, resultOf, sentToolResults, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const systemOf = (body: any): string => JSON.stringify(body.system);

describe("rules and skills", () => {
  it("puts AGENTS.md, .clinerules, .bowline/rules and ~/.bowline/rules into the system prompt", async () => {
    const s = await startScenario("anthropic", [complete()]);
    writeFileSync(join(s.repo, "AGENTS.md"), "Always use two-space indentation.\n");
    writeFileSync(join(s.repo, ".clinerules"), "Never edit package-lock.json by hand.\n");
    mkdirSync(join(s.repo, ".bowline", "rules"), { recursive: true });
    writeFileSync(join(s.repo, ".bowline", "rules", "tests.md"), "Run node --test after changes.\n");
    mkdirSync(join(s.home, "rules"), { recursive: true });
    writeFileSync(join(s.home, "rules", "me.md"), "Answer in British English.\n");
    const run = await s.run("Hello.", []);
    expect(run.code).toBe(0);
    const system = systemOf(s.server.requests[0]!.body);
    for (const rule of [
      "two-space indentation",
      "package-lock.json",
      "node --test after changes",
      "British English",
    ]) {
      expect(system).toContain(rule);
    }
  });

  it("lists skills by name and description and loads one on demand with use_skill", async () => {
    const s = await startScenario("anthropic", [
      { toolCalls: [{ name: "use_skill", input: { skill_name: "release" } }] },
      complete(),
    ]);
    const dir = join(s.repo, ".bowline", "skills", "release");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      "---\nname: release\ndescription: How to cut a release\n---\nBump the version, tag it, push the tag.\n",
    );
    const run = await s.run("Cut a release.", []);
    expect(run.code).toBe(0);
    const first = s.server.requests[0]!.body;
    expect(systemOf(first)).toContain("release: How to cut a release");
    expect(systemOf(first)).not.toContain("Bump the version");
    expect(first.tools.map((t: any) => t.name)).toContain("use_skill");
    expect(sentToolResults(s.server.requests[1]!)[0]!.text).toContain(
      "Bump the version, tag it, push the tag.",
    );
  });

  it("does not offer use_skill when there are no skills", async () => {
    const s = await startScenario("anthropic", [complete()]);
    await s.run("Hello.", []);
    expect(s.server.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain("use_skill");
  });
});

describe("plan_mode_respond", () => {
  it("is offered in plan mode only, and presents the plan as the result", async () => {
    const s = await startScenario("anthropic", [
      { toolCalls: [{ name: "plan_mode_respond", input: { response: "1. Fix average.\n2. Add a test." } }] },
    ]);
    const run = await s.run("Plan it.", ["--mode", "plan", "--output-format", "json"]);
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "1. Fix average.\n2. Add a test." });
    expect(s.server.requests[0]!.body.tools.map((t: any) => t.name)).toContain("plan_mode_respond");

    const act = await startScenario("anthropic", [complete()]);
    await act.run("Do it.", []);
    expect(act.server.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain("plan_mode_respond");
  });
});

describe("attempt_completion", () => {
  it("is refused when it comes in the same reply as a change whose result the model has not seen", async () => {
    const s = await startScenario("anthropic", [
      {
        toolCalls: [
          { name: "write_to_file", input: { path: "NOTE.md", content: "hi\n" } },
          { name: "attempt_completion", input: { result: "done too early" } },
        ],
      },
      complete("checked and done"),
    ]);
    const run = await s.run("Write a note.", ["--yes", "--output-format", "json"]);
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "checked and done" });
    const [write, completion] = sentToolResults(s.server.requests[1]!);
    expect(write!.isError).toBe(false);
    expect(completion!.text).toContain(
      "Refused: attempt_completion came in the same message as write_to_file",
    );
  });
});

describe("nested AGENTS.md", () => {
  it("adds a subfolder's AGENTS.md to the first result that touches a file below it, once", async () => {
    const s = await startScenario("anthropic", [
      { toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }] },
      { toolCalls: [{ name: "read_file", input: { path: "src/math.js", start_line: 1, end_line: 2 } }] },
      complete(),
    ]);
    writeFileSync(join(s.repo, "src", "AGENTS.md"), "Functions in src/ must stay pure.\n");
    const run = await s.run("Read math.", []);
    expect(run.code).toBe(0);
    const first = sentToolResults(s.server.requests[1]!)[0]!.text;
    expect(first).toContain("Functions in src/ must stay pure.");
    expect(first).toContain('source="src/AGENTS.md"');
    expect(sentToolResults(s.server.requests[2]!)[0]!.text).not.toContain("must stay pure");
  });
});

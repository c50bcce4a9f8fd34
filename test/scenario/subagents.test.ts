/**
 * use_subagents: read-only subagents run in parallel, each its own loop against the same
 * model, and their reports come back to the main task as one result.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSession } from "../../src/coding/session/load-session.js";
import type { RecordedRequest, ScriptedTurn } from "../support/fake-model-server.js";
import { closeScenarios, resultOf, sentToolResults, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const isSubagent = (request: RecordedRequest) =>
  JSON.stringify(request.body.system).includes("You are a subagent");
const firstUserText = (request: RecordedRequest) => JSON.stringify(request.body.messages[0]);

/** Usage each request reports: the subagents' stand out from the main task's. */
const SUBAGENT_USAGE = { inputTokens: 1000, outputTokens: 100 };
const MAIN_USAGE = { inputTokens: 10, outputTokens: 1 };

function script(request: RecordedRequest): ScriptedTurn {
  const turn = request.body.messages.length;
  if (isSubagent(request)) {
    const topic = firstUserText(request).includes("average") ? "average" : "add";
    if (turn === 1)
      return { toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }], usage: SUBAGENT_USAGE };
    return {
      toolCalls: [{ name: "attempt_completion", input: { result: `REPORT ${topic}: see src/math.js` } }],
      usage: SUBAGENT_USAGE,
    };
  }
  if (turn === 1) {
    return {
      toolCalls: [{ name: "use_subagents", input: { prompt_1: "Find add.", prompt_2: "Find average." } }],
      usage: MAIN_USAGE,
    };
  }
  return { toolCalls: [{ name: "attempt_completion", input: { result: "Both found." } }], usage: MAIN_USAGE };
}

describe("use_subagents", () => {
  it("runs read-only subagents in parallel and returns their reports to the main task", async () => {
    const s = await startScenario("anthropic", script);
    const run = await s.run("Explore the code.", ["--output-format", "json"]);
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Both found." });

    const sub = s.server.requests.filter(isSubagent);
    expect(sub).toHaveLength(4);
    for (const request of sub) {
      const names = request.body.tools.map((t: any) => t.name);
      expect(names).toContain("read_file");
      for (const forbidden of ["use_subagents", "write_to_file", "replace_in_file", "execute_command"]) {
        expect(names).not.toContain(forbidden);
      }
    }
    const main = s.server.requests.filter((request) => !isSubagent(request));
    const [result] = sentToolResults(main[1]!);
    expect(result!.text).toContain("REPORT add");
    expect(result!.text).toContain("REPORT average");
    // Each subagent's conversation is journaled inside the task's folder.
    const [taskId] = readdirSync(join(s.home, "tasks"));
    for (const n of ["1", "2"]) {
      expect(existsSync(join(s.home, "tasks", taskId!, "subagents", n, "api_history.jsonl"))).toBe(true);
    }
    // The task's totals include what the subagents spent (2 main requests, 4 subagent requests),
    // as reported and as loaded again from the journal.
    const expected = { inputTokens: 2 * 10 + 4 * 1000, outputTokens: 2 * 1 + 4 * 100 };
    expect(resultOf(run).usage).toMatchObject(expected);
    expect(loadSession(s.home, taskId!).usage).toMatchObject(expected);
  });
});

describe("configured subagents", () => {
  it("offers each agent in .bowline/agents as use_subagent_<name> and runs it with its instructions", async () => {
    const s = await startScenario("anthropic", (request) => {
      if (isSubagent(request)) {
        return { toolCalls: [{ name: "attempt_completion", input: { result: "REVIEW: looks fine" } }] };
      }
      if (request.body.messages.length === 1) {
        return { toolCalls: [{ name: "use_subagent_reviewer", input: { prompt: "Review src/math.js." } }] };
      }
      return { toolCalls: [{ name: "attempt_completion", input: { result: "Reviewed." } }] };
    });
    mkdirSync(join(s.repo, ".bowline", "agents"), { recursive: true });
    writeFileSync(
      join(s.repo, ".bowline", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews code for bugs.\n---\nYou review code. Be terse.\n",
    );
    const run = await s.run("Get a review.", ["--output-format", "json"]);
    expect(run.code).toBe(0);
    const main = s.server.requests.filter((request) => !isSubagent(request));
    const names = main[0]!.body.tools.map((t: any) => t.name);
    expect(names).toContain("use_subagent_reviewer");
    expect(names).not.toContain("use_subagents");
    const tool = main[0]!.body.tools.find((t: any) => t.name === "use_subagent_reviewer");
    expect(tool.description).toContain("Reviews code for bugs.");
    const sub = s.server.requests.find(isSubagent)!;
    expect(firstUserText(sub)).toContain("You review code. Be terse.");
    expect(firstUserText(sub)).toContain("Review src/math.js.");
    expect(sentToolResults(main[1]!)[0]!.text).toContain("REVIEW: looks fine");
  });
});

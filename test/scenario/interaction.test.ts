/** ask_followup_question and act_mode_respond through the real CLI. */
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonLines, runCli } from "../support/cli.js";
import { closeScenarios, complete, resultOf, sentToolResults, startScenario } from "./scenario.js";

afterEach(closeScenarios);

describe("ask_followup_question", () => {
  it("in print mode, tells the model nobody can answer so it proceeds on an assumption", async () => {
    const s = await startScenario("anthropic", [
      {
        toolCalls: [
          { name: "ask_followup_question", input: { question: "Which file?", options: ["a", "b"] } },
        ],
      },
      complete("Assumed a."),
    ]);
    const run = await s.run("Fix it.", ["--output-format", "json"]);
    expect(run.code).toBe(0);
    expect(s.server.requests[0]!.body.tools.map((t: any) => t.name)).toContain("ask_followup_question");
    expect(sentToolResults(s.server.requests[1]!)[0]!.text).toMatch(/not available[\s\S]*assumption/);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Assumed a." });
  });

  it("is answered on the terminal in interactive mode", async () => {
    const s = await startScenario("anthropic", [
      {
        toolCalls: [
          { name: "ask_followup_question", input: { question: "Which file?", options: ["a.js", "b.js"] } },
        ],
      },
      complete("Used b.js."),
    ]);
    const run = await runCli(
      ["Fix it.", "--provider", "anthropic", "--base-url", s.server.url, "--model", "fake-model"],
      { cwd: s.repo, input: "2\n", env: { ANTHROPIC_API_KEY: "k", BOWLINE_HOME: s.home } },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Which file?");
    expect(sentToolResults(s.server.requests[1]!)[0]!.text).toContain("b.js");
  });
});

describe("act_mode_respond (GPT-style variant)", () => {
  it("shows a progress update and lets the work go on", async () => {
    const s = await startScenario("openai", [
      { toolCalls: [{ name: "act_mode_respond", input: { response: "Read the code; fixing next." } }] },
      complete("Done."),
    ]);
    const run = await s.run("Fix it.", ["--model", "gpt-5", "--output-format", "stream-json"]);
    expect(run.code).toBe(0);
    expect(s.server.requests[0]!.body.tools.map((t: any) => t.function.name)).toContain("act_mode_respond");
    expect(sentToolResults(s.server.requests[1]!)[0]!.text).toContain("Continue");
    const outputs = parseJsonLines(run.stdout)
      .filter((e) => e.type === "ui_message_updated" && e.message.payload.tool === "act_mode_respond")
      .map((e) => e.message.payload.status);
    expect(outputs).toContain("done");
    expect(resultOf(run)).toMatchObject({ status: "completed" });
  });
});

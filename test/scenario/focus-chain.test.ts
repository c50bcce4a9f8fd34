/** The focus chain (`--focus-chain`): the task_progress checklist through the real CLI. */
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonLines } from "../support/cli.js";
import { closeScenarios, resultOf, sentToolResults, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const read = (progress: string) => ({
  toolCalls: [{ name: "read_file", input: { path: "src/math.js", task_progress: progress } }],
});

describe("--focus-chain", () => {
  it("offers task_progress on every tool, shows the checklist, and refuses completion while items are open", async () => {
    const s = await startScenario("anthropic", [
      read("- [x] read the code\n- [ ] fix average"),
      { toolCalls: [{ name: "attempt_completion", input: { result: "too soon" } }] },
      read("- [x] read the code\n- [x] fix average"),
      { toolCalls: [{ name: "attempt_completion", input: { result: "all done" } }] },
    ]);
    const run = await s.run("Fix it.", ["--focus-chain", "--output-format", "stream-json"]);
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "all done" });

    const tools = s.server.requests[0]!.body.tools;
    expect(tools.every((t: any) => t.input_schema.properties.task_progress?.type === "string")).toBe(true);
    expect(JSON.stringify(s.server.requests[0]!.body.messages[0])).toContain("task_progress");

    const refused = sentToolResults(s.server.requests[2]!)[0]!;
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("- [ ] fix average");

    const shown = parseJsonLines(run.stdout)
      .filter((e) => e.type === "ui_message_added" && e.message.payload.say === "task_progress")
      .map((e) => e.message.payload.text);
    expect(shown).toEqual([
      "- [x] read the code\n- [ ] fix average",
      "- [x] read the code\n- [x] fix average",
    ]);
  });

  it("is off by default: no task_progress parameter in the schemas", async () => {
    const s = await startScenario("anthropic", [
      { toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] },
    ]);
    await s.run("Hi.", []);
    expect(JSON.stringify(s.server.requests[0]!.body.tools)).not.toContain("task_progress");
  });
});

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createActModeRespondTool } from "../../src/coding/tools/act-mode-respond.js";
import { createNewTaskTool } from "../../src/coding/tools/new-task.js";
import { createPlanModeRespondTool } from "../../src/coding/tools/plan-mode-respond.js";
import { createTestToolContext } from "./tool-context.js";

describe("new_task", () => {
  it("requires every section and hands over a structured summary as the result", async () => {
    const tool = createNewTaskTool();
    expect(z.safeParse(tool.inputSchema, { current_work: "x" }).success).toBe(false);
    const input = {
      current_work: "Fixing the parser.",
      key_concepts: "Linear scan.",
      relevant_files: "src/parser.ts",
      problems_solved: "CRLF handling.",
      next_steps: "Add tests for greedy params.",
    };
    const result = await tool.execute(input, createTestToolContext("").ctx);
    expect(result.completion?.result).toContain("## Next steps\nAdd tests for greedy params.");
    expect(result.details?.handoff).toContain("## Relevant files\nsrc/parser.ts");
  });
});

describe("plan_mode_respond and act_mode_respond", () => {
  it("plan_mode_respond ends the run with the plan and its options", async () => {
    const result = await createPlanModeRespondTool().execute(
      { response: "Do A then B.", options: ["Go", "Change the plan"] },
      createTestToolContext("").ctx,
    );
    expect(result.completion?.result).toBe("Do A then B.\n\nOptions:\n1. Go\n2. Change the plan");
  });

  it("act_mode_respond shows the update as progress and lets the work go on", async () => {
    const test = createTestToolContext("");
    const result = await createActModeRespondTool().execute({ response: "Half way." }, test.ctx);
    expect(result.completion).toBeUndefined();
    expect(result.content).toContain("Continue");
    expect(test.progress).toEqual(["Half way."]);
  });
});

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createAskFollowupQuestionTool } from "../../src/coding/tools/ask-followup-question.js";
import { createAttemptCompletionTool } from "../../src/coding/tools/attempt-completion.js";
import { createTestToolContext } from "./tool-context.js";

describe("ask_followup_question", () => {
  it("asks the user through the context and wraps the answer", async () => {
    const test = createTestToolContext("Use PostgreSQL");
    const tool = createAskFollowupQuestionTool();
    const input = { question: "Which database?", options: ["PostgreSQL", "SQLite"] };
    const result = await tool.execute(input, test.ctx);
    expect(test.questions).toEqual([{ question: "Which database?", options: ["PostgreSQL", "SQLite"] }]);
    expect(result.content).toBe("<answer>\nUse PostgreSQL\n</answer>");
    expect(result.details).toEqual({ ...input, answer: "Use PostgreSQL" });
    expect(result.isError).toBeFalsy();
    expect(tool.mutates).toBe(false);
    expect(tool.summarize(input)).toBe("ask_followup_question Which database?");
  });

  it("asks without options, and its schema allows only 2 to 5 options", async () => {
    const test = createTestToolContext("fine");
    const tool = createAskFollowupQuestionTool();
    await tool.execute({ question: "OK?" }, test.ctx);
    expect(test.questions).toEqual([{ question: "OK?" }]);
    expect(z.safeParse(tool.inputSchema, { question: "Q", options: ["only one"] }).success).toBe(false);
    expect(
      z.safeParse(tool.inputSchema, { question: "Q", options: ["1", "2", "3", "4", "5", "6"] }).success,
    ).toBe(false);
    expect(z.safeParse(tool.inputSchema, { question: "Q", options: ["1", "2"] }).success).toBe(true);
  });
});

describe("attempt_completion", () => {
  it("ends the task with the result", async () => {
    const tool = createAttemptCompletionTool();
    const result = await tool.execute(
      { result: "Fixed the bug in add().", command: "npm test" },
      createTestToolContext().ctx,
    );
    // The command is offered to the person with the result, never run by the tool.
    expect(result.completion).toEqual({
      result: "Fixed the bug in add().\n\nTo see the result, run: npm test",
    });
    expect(result.details).toEqual({ result: "Fixed the bug in add().", command: "npm test" });
    expect(result.isError).toBeFalsy();
    expect(tool.mutates).toBe(false);
    expect(tool.summarize({ result: "Fixed the bug.\nDetails follow." })).toBe(
      "attempt_completion Fixed the bug. …",
    );
  });
});

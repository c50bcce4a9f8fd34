import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { oneLine } from "./summary.js";

const DESCRIPTION =
  "Ask the user a question when you need information you cannot find yourself (a preference, a missing " +
  "requirement, a choice between approaches). Do not ask what you can learn from the files or by running " +
  "commands. Offer 2-5 short options when the likely answers are known; the user may still answer freely.";

const schema = z.object({
  question: z.string().check(z.minLength(1), z.describe("The question, clear and specific.")),
  options: z.optional(
    z
      .array(z.string().check(z.minLength(1)))
      .check(z.minLength(2), z.maxLength(5), z.describe("2 to 5 possible answers the user can pick from.")),
  ),
});

export type AskFollowupQuestionInput = z.infer<typeof schema>;

export interface AskFollowupQuestionDetails {
  question: string;
  options?: string[];
  answer: string;
}

export function createAskFollowupQuestionTool(): ToolHandler<
  AskFollowupQuestionInput,
  AskFollowupQuestionDetails
> {
  return {
    name: "ask_followup_question",
    description: DESCRIPTION,
    inputSchema: schema,
    mutates: false,
    category: "interactive",
    summarize: (input) => `ask_followup_question ${oneLine(input.question)}`,
    async execute(input, ctx) {
      const answer = await ctx.askUser(input.question, input.options);
      const details = {
        question: input.question,
        ...(input.options ? { options: input.options } : {}),
        answer,
      };
      return { content: `<answer>\n${answer}\n</answer>`, details };
    },
  };
}

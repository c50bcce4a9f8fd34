import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";

const schema = z.object({
  response: z.string().check(z.minLength(1), z.describe("Your plan or answer for the user.")),
  options: z.optional(
    z
      .array(z.string().check(z.minLength(1)))
      .check(z.maxLength(5), z.describe("Up to 5 choices the user can pick from, if any.")),
  ),
});

export type PlanModeRespondInput = z.infer<typeof schema>;
export interface PlanModeRespondDetails {
  options?: string[];
}

/**
 * The plan-mode reply: presents the plan to the person and ends this run of the task with it.
 * The person answers with a new message (or switches to act mode) to continue.
 */
export function createPlanModeRespondTool(): ToolHandler<PlanModeRespondInput, PlanModeRespondDetails> {
  return {
    name: "plan_mode_respond",
    description:
      "In PLAN MODE, present your plan or answer to the user once you have explored enough. The user replies or switches to act mode.",
    inputSchema: schema,
    mutates: false,
    planModeOnly: true,
    category: "none",
    summarize: () => "plan_mode_respond",
    async execute(input) {
      const choices = input.options?.length
        ? `\n\nOptions:\n${input.options.map((o, i) => `${i + 1}. ${o}`).join("\n")}`
        : "";
      return {
        content: "Plan presented to the user.",
        details: { options: input.options },
        completion: { result: `${input.response}${choices}` },
      };
    },
  };
}

import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { oneLine } from "./summary.js";

const DESCRIPTION =
  "Present the result of the task to the user once it is done and you have checked it (e.g. the build " +
  "and tests pass). This ends the task. State what was done, concisely and finally: do not end with a " +
  "question or an offer of more help.";

const schema = z.object({
  result: z.string().check(z.minLength(1), z.describe("What was done, for the user.")),
  command: z.optional(
    z
      .string()
      .check(
        z.describe('A command that shows the result to the user (e.g. "open index.html"), if there is one.'),
      ),
  ),
});

export type AttemptCompletionInput = z.infer<typeof schema>;

export interface AttemptCompletionDetails {
  result: string;
  command?: string;
}

export function createAttemptCompletionTool(): ToolHandler<AttemptCompletionInput, AttemptCompletionDetails> {
  return {
    name: "attempt_completion",
    description: DESCRIPTION,
    inputSchema: schema,
    mutates: false,
    category: "none",
    summarize: (input) => `attempt_completion ${oneLine(input.result)}`,
    async execute(input) {
      const details = { result: input.result, ...(input.command ? { command: input.command } : {}) };
      // The command is offered to the person, not run: showing a result (opening a page,
      // starting a server) is theirs to choose, and it would otherwise run unapproved.
      const result = input.command
        ? `${input.result}\n\nTo see the result, run: ${input.command}`
        : input.result;
      return {
        content: "The result was presented to the user.",
        details,
        completion: { result },
      };
    },
  };
}

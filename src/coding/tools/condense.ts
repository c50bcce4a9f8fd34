import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";

const schema = z.object({
  context: z
    .string()
    .check(
      z.minLength(1),
      z.describe(
        "A detailed summary that replaces the conversation: the task and what the user asked for, decisions made, files changed and why, what is done, what remains, and anything the user said that must not be lost.",
      ),
    ),
});

export type CondenseInput = z.infer<typeof schema>;

/**
 * Manual compaction: offered when the person asks for it (`/compact [focus]`); the task's
 * conversation is replaced by the model's summary and the work goes on from it.
 */
export function createCondenseTool(): ToolHandler<CondenseInput, { characters: number }> {
  return {
    name: "condense",
    description:
      "Replaces the conversation so far with your summary, to free the context window. Only when the user asks for it.",
    inputSchema: schema,
    mutates: false,
    category: "none",
    summarize: () => "condense",
    async execute(input) {
      return {
        content: "Conversation condensed.",
        details: { characters: input.context.length },
        condense: { summary: input.context },
      };
    },
  };
}

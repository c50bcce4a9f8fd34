import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";

const schema = z.object({
  response: z.string().check(z.minLength(1), z.describe("A short progress update for the user.")),
});

export type ActModeRespondInput = z.infer<typeof schema>;

/** A progress message in act mode that does not stop the work. */
export function createActModeRespondTool(): ToolHandler<ActModeRespondInput, { shown: boolean }> {
  return {
    name: "act_mode_respond",
    description: "Tells the user how the work is going without stopping; then continue with the next tool.",
    inputSchema: schema,
    mutates: false,
    category: "none",
    summarize: (input) => `act_mode_respond ${input.response.slice(0, 60)}`,
    async execute(input, ctx) {
      ctx.onProgress({ type: "output", text: input.response });
      return { content: "Update shown to the user. Continue with the task.", details: { shown: true } };
    },
  };
}

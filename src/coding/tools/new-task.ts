import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";

const section = (what: string) => z.string().check(z.minLength(1), z.describe(what));

const schema = z.object({
  current_work: section("What was being worked on, in detail."),
  key_concepts: section("Technical concepts, conventions and decisions that matter."),
  relevant_files: section("Files and code involved, with why each matters."),
  problems_solved: section("Problems solved and how, and anything tried that failed."),
  next_steps: section("What remains, in order, with enough detail to continue without this conversation."),
});

export type NewTaskInput = z.infer<typeof schema>;
export interface NewTaskDetails {
  handoff: string;
}

/**
 * Hands the work over to a new task: the conversation so far is replaced by a structured
 * summary. This run ends with the handoff as its result; the host starts the new task with it
 * (e.g. `bowline -p "$(cat handoff.md)"`).
 */
export function createNewTaskTool(): ToolHandler<NewTaskInput, NewTaskDetails> {
  return {
    name: "new_task",
    description:
      "Starts a fresh task that continues this one, when the conversation has grown long or the work moves to a new phase. Give a complete handoff: the new task sees only this.",
    inputSchema: schema,
    mutates: false,
    category: "interactive",
    summarize: () => "new_task",
    async execute(input) {
      const handoff = [
        "# Continuing an earlier task",
        `## Current work\n${input.current_work}`,
        `## Key concepts\n${input.key_concepts}`,
        `## Relevant files\n${input.relevant_files}`,
        `## Problems solved\n${input.problems_solved}`,
        `## Next steps\n${input.next_steps}`,
      ].join("\n\n");
      return {
        content: "Handoff prepared for a new task.",
        details: { handoff },
        completion: { result: handoff },
      };
    },
  };
}

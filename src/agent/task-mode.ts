import type { ContentBlock } from "../llm/types.js";
import { modeSwitched } from "./task-prompts.js";

export type TaskMode = "plan" | "act";

/** A task's plan/act mode, and what the model has been told of it. */
export function createTaskMode(initial: TaskMode = "act") {
  let mode = initial;
  // The model assumes act mode until told otherwise.
  let told: TaskMode = "act";
  return {
    get current(): TaskMode {
      return mode;
    },
    set(next: TaskMode): void {
      mode = next;
    },
    /** For the next request: a note when the mode changed since the model was last told (a task begun in plan mode too). */
    takeNote(): ContentBlock[] {
      if (mode === told) return [];
      told = mode;
      return [{ type: "text", text: modeSwitched(mode) }];
    },
  };
}

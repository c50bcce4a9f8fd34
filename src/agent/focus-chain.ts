/**
 * The focus chain: a markdown checklist the model keeps in the optional `task_progress`
 * parameter of any tool call. The task keeps the latest one, shows it to the person, reminds
 * the model of it every few turns, and refuses completion while items are open.
 */
export const TASK_PROGRESS_PARAM = "task_progress";

export const TASK_PROGRESS_DESCRIPTION =
  "Optional: the task's checklist in markdown (`- [x] done`, `- [ ] to do`), updated whenever items change.";

export function createFocusChain(options: { reinjectEvery?: number } = {}) {
  const every = options.reinjectEvery ?? 6;
  let checklist: string | undefined;
  let turnsSinceUpdate = 0;
  return {
    get checklist(): string | undefined {
      return checklist;
    },
    /** Takes the checklist from a call's input, if it has one; true when it changed. */
    take(input: unknown): boolean {
      const value = (input as Record<string, unknown> | null | undefined)?.[TASK_PROGRESS_PARAM];
      if (typeof value !== "string" || !value.trim() || value.trim() === checklist) return false;
      checklist = value.trim();
      turnsSinceUpdate = 0;
      return true;
    },
    /** The unchecked items (`- [ ] ...`). */
    openItems(): string[] {
      return (checklist ?? "")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => /^[-*] \[ \]/.test(line))
        .map((line) => line.replace(/^[-*] \[ \]\s*/, ""));
    },
    /** A reminder for the next user message, every few turns (or to start one on the first). */
    reminder(turn: number): string | undefined {
      turnsSinceUpdate++;
      if (turn === 1 && checklist === undefined) {
        return "Keep a short checklist of this task's steps in the task_progress parameter of your tool calls, and update it as you go.";
      }
      if (checklist === undefined || turnsSinceUpdate < every) return undefined;
      turnsSinceUpdate = 0;
      return `<task_progress>\n${checklist}\n</task_progress>\nThis is your checklist; update it with task_progress when items change.`;
    },
  };
}

export type FocusChain = ReturnType<typeof createFocusChain>;

import type { ContentBlock } from "../llm/types.js";
import type { HookRunner } from "./pipeline/hooks.js";
import type { UiMessageLog } from "./ui-messages.js";

export interface PromptHookContext {
  hooks?: HookRunner;
  ui: UiMessageLog;
  taskId: string;
  signal: AbortSignal;
}

/**
 * Runs the hooks of a prompt (TaskStart, UserPromptSubmit) in order: a block stops the task
 * before anything is sent; contexts are added to the message; problems become notices.
 */
export async function runPromptHooks(
  context: PromptHookContext,
  events: ReadonlyArray<"TaskStart" | "UserPromptSubmit">,
  prompt: string,
): Promise<{ block?: string; context: ContentBlock[] }> {
  const added: ContentBlock[] = [];
  if (!context.hooks) return { context: added };
  for (const event of events) {
    const outcome = await context.hooks.run(
      event,
      { taskId: context.taskId, prompt },
      { signal: context.signal },
    );
    for (const problem of outcome.problems)
      context.ui.say({ say: "notice", text: `Hook problem: ${problem}` });
    if (outcome.block) return { block: `${event} hook: ${outcome.block.reason}`, context: added };
    if (outcome.context) {
      added.push({
        type: "text",
        text: `<hook_context source="${event}">\n${outcome.context}\n</hook_context>`,
      });
    }
  }
  return { context: added };
}

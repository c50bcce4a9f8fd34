/**
 * Messages the person sent while the task worked. They reach the model with the results of the
 * running tools (before the next request), or answer its next question; each one's
 * `user_message` is said when it is delivered, not when it was typed.
 */
import type { ContentBlock } from "../llm/types.js";
import type { UiMessageLog } from "./ui-messages.js";

export function createInterjections(ui: UiMessageLog) {
  const waiting: Array<{ text: string; content: ContentBlock[] }> = [];
  const take = () =>
    waiting.splice(0).map((message) => {
      ui.say({ say: "user_message", text: message.text });
      return message;
    });
  return {
    get pending(): boolean {
      return waiting.length > 0;
    },
    add(text: string, content: ContentBlock[]): void {
      waiting.push({ text, content });
    },
    /** The waiting messages as content for the model. */
    deliver(): ContentBlock[] {
      return take().flatMap((message) => message.content);
    },
    /** The waiting messages as one answer to a question; undefined when none waits. */
    deliverAsAnswer(): string | undefined {
      return waiting.length === 0
        ? undefined
        : take()
            .map((message) => message.text)
            .join("\n\n");
    },
  };
}

/**
 * The task's questions to the person (approvals, follow-up questions, limits): each is a UI
 * ask that waits for `answer`; the task shows as waiting meanwhile. With nobody to answer
 * (`interactive` false), approvals are refused and questions get a canned reply.
 */
import type { Ask, TaskStatus } from "../protocol/index.js";
import type { ApprovalAnswer } from "./approval.js";
import * as prompts from "./task-prompts.js";
import type { ToolHandler } from "./tool.js";
import type { UiMessageLog } from "./ui-messages.js";

export type AskAnswer = { response: "approve" | "deny" | "message"; text?: string };

export interface AskChannelOptions {
  ui: UiMessageLog;
  interactive: boolean;
  setStatus(status: TaskStatus): void;
  /** Messages the person already sent while the task worked: they answer the next question. */
  takeWaitingMessages?(): string | undefined;
}

export function createAskChannel(options: AskChannelOptions) {
  const pending = new Map<string, (answer: AskAnswer) => void>();

  const ask = (payload: Ask): Promise<AskAnswer> => {
    const message = options.ui.ask(payload);
    options.setStatus("waiting");
    return new Promise((resolve) => {
      pending.set(message.id, (answer) => {
        pending.delete(message.id);
        options.setStatus("running");
        resolve(answer);
      });
    });
  };

  return {
    ask,
    /** Asks whether a call the policy did not allow on its own may run. */
    async requestApproval(tool: ToolHandler, input: unknown, callId: string): Promise<ApprovalAnswer> {
      if (!options.interactive) return { approved: false };
      const answer = await ask({
        ask: "tool_approval",
        tool: tool.name,
        callId,
        summary: tool.summarize(input),
        input,
      });
      if (answer.response === "approve") return { approved: true };
      return { approved: false, feedback: answer.text };
    },
    /** A question from the model (ask_followup_question); the person's reply as text. */
    async askUser(question: string, choices?: string[]): Promise<string> {
      if (!options.interactive) return prompts.userUnavailable();
      const waiting = options.takeWaitingMessages?.();
      if (waiting !== undefined) return waiting;
      const answer = await ask({ ask: "followup", question, options: choices });
      return answer.text ?? answer.response;
    },
    /** Answers the ask with that id; false when no such ask is waiting. */
    answer(askId: string, answer: AskAnswer): boolean {
      const resolve = pending.get(askId);
      if (!resolve) return false;
      resolve(answer);
      return true;
    },
    /** Denies every waiting ask (the task is being aborted). */
    denyAll(): void {
      for (const resolve of [...pending.values()]) resolve({ response: "deny" });
    },
  };
}

export type AskChannel = ReturnType<typeof createAskChannel>;

import type { ToolContext } from "../../src/agent/tool.js";

/** A ToolContext for tests, with what the tool did through it. */
export interface TestToolContext {
  ctx: ToolContext;
  /** Aborts `ctx.signal`. */
  controller: AbortController;
  /** Text of every `output` progress report, in order. */
  progress: string[];
  /** Every question asked, with its options. */
  questions: Array<{ question: string; options?: string[] }>;
}

/** Builds a context whose `askUser` answers `answer`. */
export function createTestToolContext(answer = "yes"): TestToolContext {
  const controller = new AbortController();
  const progress: string[] = [];
  const questions: TestToolContext["questions"] = [];
  const ctx: ToolContext = {
    taskId: "task-1",
    callId: "call-1",
    signal: controller.signal,
    onProgress: (p) => {
      progress.push(p.text);
    },
    askUser: async (question, options) => {
      questions.push(options === undefined ? { question } : { question, options });
      return answer;
    },
  };
  return { ctx, controller, progress, questions };
}

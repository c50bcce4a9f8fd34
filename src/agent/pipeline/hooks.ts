/**
 * Hooks: the person's own programs, run at points of a task's life. What the loop does with an
 * outcome, per event (fields an event does not honour are dropped by the outcome builder and
 * reported as problems):
 *
 * - PreToolUse: `block` -> the call does not run and the model gets the reason as an error result;
 *   `input` -> replaces the call's input (validate it again); `context` -> added after the result.
 * - PostToolUse: `block` -> the task stops once this turn's results are recorded; `context` ->
 *   added after the result.
 * - UserPromptSubmit: `block` -> the prompt is not sent and the person sees the reason;
 *   `context` -> added to the user message.
 * - TaskStart: `block` -> the task does not start; `context` -> added to the first message.
 * - TaskComplete: observation only.
 * - PreCompact: `block` -> this compaction is skipped; `context` -> added to the next message.
 */

export type HookEvent =
  | "PreToolUse"
  | "PostToolUse"
  | "UserPromptSubmit"
  | "TaskStart"
  | "TaskComplete"
  | "PreCompact";

export const HOOK_EVENTS: readonly HookEvent[] = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "TaskStart",
  "TaskComplete",
  "PreCompact",
];

/** What each event hands to its hooks. */
export interface HookPayloads {
  /** Runs after approval, just before the handler. `tool` is the name the model called. */
  PreToolUse: { taskId: string; tool: string; input: unknown };
  PostToolUse: {
    taskId: string;
    tool: string;
    input: unknown;
    /** The model-facing text of the result. */
    result: { content: string; isError: boolean };
    durationMs: number;
  };
  UserPromptSubmit: { taskId: string; prompt: string };
  TaskStart: { taskId: string; prompt: string };
  TaskComplete: { taskId: string; result: string };
  PreCompact: { taskId: string; strategy: string; messageCount: number };
}

export type HookPayload<E extends HookEvent> = HookPayloads[E];

/** The combined answer of every hook for one event. */
export interface HookOutcome {
  /** The first hook that blocked; later hooks did not run. */
  block?: { reason: string; source?: string };
  /** PreToolUse only: the rewritten input (each hook saw the previous hook's rewrite). */
  input?: unknown;
  /** Text for the model, from every hook that gave some, joined by blank lines. */
  context?: string;
  /** Hooks that crashed, timed out, printed garbage or asked for something the event ignores. Never fatal. */
  problems: string[];
}

export interface HookRunOptions {
  /** Stops running hooks (a running one is killed) when aborted. */
  signal?: AbortSignal;
}

/** Runs the hooks of one event. Contract: never rejects; every failure is a `problems` entry. */
export interface HookRunner {
  run<E extends HookEvent>(event: E, payload: HookPayload<E>, options?: HookRunOptions): Promise<HookOutcome>;
}

/** Runs nothing. */
export const noHooks: HookRunner = {
  run: async () => ({ problems: [] }),
};

/** Which outcome fields each event honours. */
export const HOOK_CAPABILITIES: Readonly<
  Record<HookEvent, { block: boolean; input: boolean; context: boolean }>
> = {
  PreToolUse: { block: true, input: true, context: true },
  PostToolUse: { block: true, input: false, context: true },
  UserPromptSubmit: { block: true, input: false, context: true },
  TaskStart: { block: true, input: false, context: true },
  TaskComplete: { block: false, input: false, context: false },
  PreCompact: { block: true, input: false, context: true },
};

/** What a single hook answered. */
export type HookAnswer =
  | { type: "none" }
  | { type: "block"; reason: string }
  | { type: "answer"; input?: { value: unknown }; context?: string };

/** Longest context kept from all hooks of one event together. */
export const MAX_HOOK_CONTEXT_CHARS = 50_000;

/**
 * Folds single answers into an outcome, in run order. Use `add` after each hook; it returns
 * false once a block ends the run.
 */
export function createOutcomeBuilder(event: HookEvent) {
  const can = HOOK_CAPABILITIES[event];
  const outcome: HookOutcome = { problems: [] };
  const contexts: string[] = [];
  const problem = (source: string, text: string) => {
    outcome.problems.push(`${source}: ${text}`);
  };
  return {
    /** Records a problem of `source` (a hook's path, or the runner). */
    problem,
    /** Adds one hook's answer; false when the run must stop (it blocked). */
    add(source: string, answer: HookAnswer): boolean {
      if (answer.type === "none") return true;
      if (answer.type === "block") {
        if (!can.block) {
          problem(source, `blocking is not possible for ${event}; ignored`);
          return true;
        }
        outcome.block = { reason: answer.reason, source };
        return false;
      }
      if (answer.input !== undefined) {
        if (can.input) outcome.input = answer.input.value;
        else problem(source, `rewriting the input is only possible for PreToolUse; ignored`);
      }
      if (answer.context !== undefined && answer.context !== "") {
        if (can.context) contexts.push(answer.context);
        else problem(source, `adding context is not possible for ${event}; ignored`);
      }
      return true;
    },
    /** The current (chained) input, for the next hook. */
    currentInput(original: unknown): unknown {
      return "input" in outcome ? outcome.input : original;
    },
    finish(): HookOutcome {
      if (contexts.length > 0) {
        let context = contexts.join("\n\n");
        if (context.length > MAX_HOOK_CONTEXT_CHARS) {
          context = context.slice(0, MAX_HOOK_CONTEXT_CHARS);
          outcome.problems.push(`hook context cut to ${MAX_HOOK_CONTEXT_CHARS} characters`);
        }
        outcome.context = context;
      }
      return outcome;
    },
  };
}

import * as z from "zod/mini";

/** Token usage of one model request, or the running total of a task. */
export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  /** US dollars, when the model's prices are known. */
  costUsd: z.optional(z.number()),
});
export type Usage = z.infer<typeof UsageSchema>;

export const ToolStatusSchema = z.enum(["pending", "running", "done", "error", "denied"]);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

/** Things Bowline tells the person. Each kind has its own typed payload. */
export const SaySchema = z.discriminatedUnion("say", [
  z.object({ say: z.literal("task"), text: z.string() }),
  z.object({ say: z.literal("user_message"), text: z.string() }),
  z.object({ say: z.literal("text"), text: z.string() }),
  z.object({ say: z.literal("reasoning"), text: z.string() }),
  z.object({
    say: z.literal("tool"),
    tool: z.string(),
    callId: z.string(),
    /** One line a host can show collapsed, e.g. `read_file src/a.ts:1-40`. */
    summary: z.string(),
    input: z.unknown(),
    status: ToolStatusSchema,
    /** Text the model saw as the result (possibly shortened for display). */
    output: z.optional(z.string()),
    /** Typed display data from the tool (diffs, exit codes, ...). */
    details: z.optional(z.unknown()),
    /** Model tokens the call spent itself (a subagent's requests); part of the task's totals. */
    usage: z.optional(UsageSchema),
  }),
  z.object({
    say: z.literal("api_request"),
    index: z.number(),
    usage: z.optional(UsageSchema),
    durationMs: z.optional(z.number()),
  }),
  z.object({ say: z.literal("notice"), text: z.string() }),
  /**
   * A failed model request about to be retried; `secondsLeft` counts down (the message is
   * updated once a second while partial).
   */
  z.object({
    say: z.literal("api_retry"),
    attempt: z.number(),
    attempts: z.number(),
    message: z.string(),
    status: z.optional(z.number()),
    delayMs: z.number(),
    secondsLeft: z.number(),
  }),
  /**
   * A checkpoint of the workspace was taken (after a step that changed files, or at the start).
   * `entryId`: the conversation entry it follows, for restoring the task to the same point.
   */
  z.object({
    say: z.literal("checkpoint"),
    checkpointId: z.string(),
    label: z.string(),
    files: z.number(),
    entryId: z.optional(z.string()),
  }),
  /** The model's task checklist (focus chain), as it last sent it. */
  z.object({ say: z.literal("task_progress"), text: z.string() }),
  z.object({ say: z.literal("error"), message: z.string(), code: z.optional(z.string()) }),
  z.object({ say: z.literal("completion_result"), text: z.string() }),
]);
export type Say = z.infer<typeof SaySchema>;

/** Things Bowline asks the person; answered with the `answer` command. */
export const AskSchema = z.discriminatedUnion("ask", [
  z.object({
    ask: z.literal("tool_approval"),
    tool: z.string(),
    callId: z.string(),
    summary: z.string(),
    input: z.unknown(),
  }),
  z.object({
    ask: z.literal("followup"),
    question: z.string(),
    options: z.optional(z.array(z.string())),
  }),
  z.object({ ask: z.literal("mistake_limit"), message: z.string() }),
  /** The task reached a budget (tokens, cost or requests): approve to go on with another budget's worth. */
  z.object({ ask: z.literal("limit_reached"), message: z.string() }),
]);
export type Ask = z.infer<typeof AskSchema>;

const UiMessageBase = z.object({
  id: z.string(),
  ts: z.number(),
  /** True while the message is still streaming. */
  partial: z.optional(z.boolean()),
  /** True when the message belongs to a reply that failed and was retried: hosts hide it. */
  discarded: z.optional(z.boolean()),
});

export const UiMessageSchema = z.union([
  z.extend(UiMessageBase, { type: z.literal("say"), payload: SaySchema }),
  z.extend(UiMessageBase, { type: z.literal("ask"), payload: AskSchema }),
]);
export type UiMessage = z.infer<typeof UiMessageSchema>;
export type SayMessage = Extract<UiMessage, { type: "say" }>;
export type AskMessage = Extract<UiMessage, { type: "ask" }>;

import * as z from "zod/mini";

/**
 * Commands about the session around a task: its model, what fills its context window, the
 * person's approval rules and the other stored tasks of the workspace, so a host can offer
 * `/model`, `/context`, `/rules` and `/resume`. Each is answered by its own event, or by
 * `command_failed` naming it.
 */

/** One part of what fills the context window, e.g. the system prompt or tool results. */
export const ContextPartSchema = z.object({
  name: z.string(),
  /** Estimated tokens. */
  tokens: z.number(),
});
export type ContextPart = z.infer<typeof ContextPartSchema>;

export const ContextReportSchema = z.object({
  /** The parts, largest share first is up to the host; their estimates add up to `estimatedTokens`. */
  parts: z.array(ContextPartSchema),
  estimatedTokens: z.number(),
  /** What the provider counted for the last request's prompt (cached included); absent before one. */
  lastPromptTokens: z.optional(z.number()),
  contextWindow: z.number(),
  /** The share of the window at which the conversation is compacted. */
  compactAtTokens: z.optional(z.number()),
});
export type ContextReport = z.infer<typeof ContextReportSchema>;

export const StoredTaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** ISO 8601. */
  updatedAt: z.string(),
  turns: z.number(),
  costUsd: z.optional(z.number()),
  /** `broken` when it cannot be read; absent when nothing tells. */
  status: z.optional(z.string()),
  /** This session's own task. */
  current: z.boolean(),
});
export type StoredTask = z.infer<typeof StoredTaskSchema>;

export const RuleEntrySchema = z.object({
  action: z.enum(["allow", "ask", "deny"]),
  /** As written: `tool` or `tool(pattern)`. */
  rule: z.string(),
  /** Where it comes from, e.g. "user settings", "remembered for this workspace". */
  source: z.string(),
});
export type RuleEntry = z.infer<typeof RuleEntrySchema>;

/** The session commands, also members of the protocol's `Command` union. */
export const SESSION_COMMANDS = [
  /**
   * Switches the model for the next request, by id (`claude-opus-4-5`) on the session's
   * provider, or `provider/model`. Answered by `model_changed` (then `state` shows it).
   */
  z.object({ type: z.literal("set_model"), model: z.string() }),
  /** Answered by `context_report`. */
  z.object({ type: z.literal("get_context") }),
  /** The workspace's stored tasks, newest first. Answered by `tasks_listed`. */
  z.object({ type: z.literal("list_tasks") }),
  /** The approval rules in force and how commands run. Answered by `rules_listed`. */
  z.object({ type: z.literal("list_rules") }),
] as const;

/** The events answering session commands, also members of the protocol's `Event` union. */
export const SESSION_EVENTS = [
  z.object({
    type: z.literal("model_changed"),
    provider: z.string(),
    model: z.string(),
    contextWindow: z.number(),
    /** Set when the model is not in the catalogue (prices and limits are guesses). */
    note: z.optional(z.string()),
  }),
  z.object({ type: z.literal("context_report"), report: ContextReportSchema }),
  z.object({ type: z.literal("tasks_listed"), tasks: z.array(StoredTaskSchema) }),
  z.object({
    type: z.literal("rules_listed"),
    rules: z.array(RuleEntrySchema),
    /** One line: how commands run (the sandbox, or why not). */
    sandbox: z.string(),
  }),
  /** A session command could not be carried out; `message` is written for the person. */
  z.object({ type: z.literal("command_failed"), command: z.string(), message: z.string() }),
] as const;

export const SessionCommandSchema = z.discriminatedUnion("type", [...SESSION_COMMANDS]);
export type SessionCommand = z.infer<typeof SessionCommandSchema>;

import * as z from "zod/mini";
import { CHECKPOINT_EVENTS } from "./checkpoint-commands.js";
import { MCP_EVENTS } from "./mcp-commands.js";
import { SESSION_EVENTS } from "./session-commands.js";
import { UiMessageSchema, UsageSchema } from "./ui-message.js";

export const TaskStatusSchema = z.enum(["idle", "running", "waiting", "completed", "failed", "aborted"]);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const ErrorCodeSchema = z.enum([
  "no_model_configured",
  "provider_error",
  "mistake_limit",
  "aborted",
  "storage_error",
  "loop_detected",
  "stopped_by_hook",
  "budget_exhausted",
  "internal",
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** Events the core emits to hosts. */
export const EventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ui_message_added"), message: UiMessageSchema }),
  /** The whole message as it is now (streaming text grows; a tool's status changes). */
  z.object({ type: z.literal("ui_message_updated"), message: UiMessageSchema }),
  /** A question for the person; answer with the `answer` command and this message's id. */
  z.object({ type: z.literal("ask"), message: UiMessageSchema }),
  z.object({
    type: z.literal("state"),
    taskId: z.string(),
    status: TaskStatusSchema,
    usage: UsageSchema,
    model: z.string(),
    mode: z.enum(["plan", "act"]),
  }),
  z.object({
    type: z.literal("task_completed"),
    taskId: z.string(),
    result: z.string(),
    usage: UsageSchema,
    turns: z.number(),
  }),
  z.object({
    type: z.literal("error"),
    code: ErrorCodeSchema,
    message: z.string(),
    /** True when the task cannot go on. */
    fatal: z.boolean(),
  }),
  ...CHECKPOINT_EVENTS,
  ...MCP_EVENTS,
  ...SESSION_EVENTS,
]);
export type Event = z.infer<typeof EventSchema>;

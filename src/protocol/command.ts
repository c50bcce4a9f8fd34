import * as z from "zod/mini";
import { CHECKPOINT_COMMANDS } from "./checkpoint-commands.js";
import { MCP_COMMANDS } from "./mcp-commands.js";
import { SESSION_COMMANDS } from "./session-commands.js";

/** An image the person attached (pasted or dropped), base64-encoded. */
export const ImageAttachmentSchema = z.object({
  mediaType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
  data: z.string(),
});
export type ImageAttachment = z.infer<typeof ImageAttachmentSchema>;

/** Commands a host sends to the core. Each names the event that answers it. */
export const CommandSchema = z.discriminatedUnion("type", [
  /** Starts a new task. Answered by `state` (running) then `ui_message_added` (say: task). */
  z.object({
    type: z.literal("start_task"),
    text: z.string(),
    images: z.optional(z.array(ImageAttachmentSchema)),
  }),
  /**
   * Adds a user message to the task. While the task works, the message is delivered with the
   * results of the tools running now (before the next model request); otherwise it starts the
   * next turn. Answered by `ui_message_added` (say: user_message). Images go to models that
   * take them; others get a note that they were left out.
   */
  z.object({
    type: z.literal("send_message"),
    text: z.string(),
    images: z.optional(z.array(ImageAttachmentSchema)),
  }),
  /**
   * Answers an open ask. `approve`/`deny` for tool approvals, `message` for follow-up questions
   * (with `text`). Answered by `ui_message_updated` of the ask's tool message, or the next turn.
   * `remember` with an approval: an allow rule (`execute_command(npm test)`) kept for this
   * workspace, so calls it covers are not asked again (a `notice` says what was remembered).
   */
  z.object({
    type: z.literal("answer"),
    askId: z.string(),
    response: z.enum(["approve", "deny", "message"]),
    text: z.optional(z.string()),
    remember: z.optional(z.string()),
  }),
  /** Stops the stream and any running tool. Answered by `state` (aborted). */
  z.object({ type: z.literal("abort") }),
  /**
   * Switches between plan mode (the model explores and proposes; edits and mutating commands are
   * refused) and act mode. Answered by `state` with the new mode.
   */
  z.object({ type: z.literal("set_mode"), mode: z.enum(["plan", "act"]) }),
  ...CHECKPOINT_COMMANDS,
  ...MCP_COMMANDS,
  ...SESSION_COMMANDS,
]);
export type Command = z.infer<typeof CommandSchema>;

import * as z from "zod/mini";

/**
 * MCP servers as hosts see them: which are configured, how each is doing and what it offers,
 * so a host can show them (`/mcp`) and offer each server's prompts as slash commands. A prompt
 * is fetched with `get_mcp_prompt` and its `text` sent as the person's message (`send_message`,
 * or `start_task` before there is a task). Servers the session starts itself start with its
 * first model request, or with the first of these commands, whichever comes first.
 */

/**
 * Where a server is: `starting` (its first connection is under way, or about to be),
 * `connected`, `restarting` (after a crash, with back-off), `failed` (given up; `error` says
 * why), `disabled` (in its configuration), `untrusted` (a project server the person has not
 * trusted yet), `invalid` (its configuration is wrong), `closed` (the session ended).
 */
export const McpServerStatusSchema = z.enum([
  "starting",
  "connected",
  "restarting",
  "failed",
  "disabled",
  "untrusted",
  "invalid",
  "closed",
]);
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>;

/** One argument of a server prompt: a slash command's parameter. */
export const McpPromptArgumentSchema = z.object({
  name: z.string(),
  description: z.optional(z.string()),
  /** `get_mcp_prompt` without a required argument is answered with an error naming it. */
  required: z.optional(z.boolean()),
});
export type McpPromptArgument = z.infer<typeof McpPromptArgumentSchema>;

/** A prompt template a server offers (MCP `prompts/list`). */
export const McpPromptSchema = z.object({
  name: z.string(),
  description: z.optional(z.string()),
  arguments: z.optional(z.array(McpPromptArgumentSchema)),
});
export type McpPrompt = z.infer<typeof McpPromptSchema>;

/** One configured server. A server that is not connected lists no tools, resources or prompts. */
export const McpServerSummarySchema = z.object({
  name: z.string(),
  status: McpServerStatusSchema,
  /** Why it failed, is untrusted or invalid; or its last crash while restarting. Written for the person. */
  error: z.optional(z.string()),
  toolCount: z.number(),
  /** Its tools' names as the server gives them (the model sees them as `<server>__mcp__<tool>`). */
  tools: z.array(z.string()),
  resourceCount: z.number(),
  prompts: z.array(McpPromptSchema),
});
export type McpServerSummary = z.infer<typeof McpServerSummarySchema>;

/** One message of a fetched prompt; images and binary resources are described in a line of text. */
export const McpPromptMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  text: z.string(),
});
export type McpPromptMessage = z.infer<typeof McpPromptMessageSchema>;

/** The MCP commands, also members of the protocol's `Command` union. */
export const MCP_COMMANDS = [
  /** The configured servers in configuration order, user's first. Answered by `mcp_servers`. */
  z.object({ type: z.literal("list_mcp_servers") }),
  /**
   * Fetches the prompt `prompt` of server `server` filled with `arguments` (argument name to
   * value, as the person typed them). A server still starting is waited for, within its call
   * timeout. Answered by `mcp_prompt`, with `text` or with `error`.
   */
  z.object({
    type: z.literal("get_mcp_prompt"),
    server: z.string(),
    prompt: z.string(),
    arguments: z.optional(z.record(z.string(), z.string())),
  }),
] as const;
export const McpCommandSchema = z.discriminatedUnion("type", [...MCP_COMMANDS]);
export type McpCommand = z.infer<typeof McpCommandSchema>;

/** The events answering MCP commands, also members of the protocol's `Event` union. */
export const MCP_EVENTS = [
  z.object({ type: z.literal("mcp_servers"), servers: z.array(McpServerSummarySchema) }),
  /**
   * A fetched prompt (`server` and `prompt` as asked). On success `text` is set: the messages'
   * texts joined by blank lines (each led by `User:` or `Assistant:` when the prompt has
   * assistant messages), ready to send as the person's message; `messages` keeps them apart.
   * On failure (no such server or prompt, a missing required argument, the server failed or
   * timed out) `error` is set instead, written for the person.
   */
  z.object({
    type: z.literal("mcp_prompt"),
    server: z.string(),
    prompt: z.string(),
    description: z.optional(z.string()),
    text: z.optional(z.string()),
    messages: z.optional(z.array(McpPromptMessageSchema)),
    error: z.optional(z.string()),
  }),
] as const;
export const McpEventSchema = z.discriminatedUnion("type", [...MCP_EVENTS]);
export type McpEvent = z.infer<typeof McpEventSchema>;

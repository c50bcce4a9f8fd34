import type {
  McpCommand,
  McpEvent,
  McpPromptMessage as McpPromptMessageText,
  McpServerSummary,
} from "../../protocol/mcp-commands.js";
import { messageOf } from "./errors.js";
import type { McpContent, McpHub, McpServerInfo } from "./hub.js";
import type { RunningMcpHub } from "./mcp-hub.js";

/** What the MCP commands need of a hub; a host's own hub may lack starting and prompts. */
export type McpCommandHub = McpHub & Partial<Pick<RunningMcpHub, "start" | "getPrompt">>;

type McpPromptEvent = Extract<McpEvent, { type: "mcp_prompt" }>;

/**
 * Answers an MCP command with its event (`mcp_servers`, `mcp_prompt`). A hub whose servers have
 * not started yet is started: the person is asking about them. Never rejects: a prompt that
 * cannot be fetched is answered with `error`.
 */
export async function answerMcpCommand(
  hub: McpCommandHub,
  command: McpCommand,
  emit: (event: McpEvent) => void,
): Promise<void> {
  hub.start?.();
  if (command.type === "list_mcp_servers") {
    emit({ type: "mcp_servers", servers: hub.listServers().map(summaryOf) });
    return;
  }
  emit(await fetchPrompt(hub, command));
}

function summaryOf(server: McpServerInfo): McpServerSummary {
  return {
    name: server.name,
    status: server.status ?? (server.disabled ? "disabled" : "connected"),
    ...(server.error ? { error: server.error } : {}),
    toolCount: server.tools.length,
    tools: server.tools.map((tool) => tool.name),
    resourceCount: server.resources?.length ?? 0,
    prompts: server.prompts ?? [],
  };
}

async function fetchPrompt(
  hub: McpCommandHub,
  command: Extract<McpCommand, { type: "get_mcp_prompt" }>,
): Promise<McpPromptEvent> {
  const { server, prompt } = command;
  const fail = (error: string): McpPromptEvent => ({ type: "mcp_prompt", server, prompt, error });
  const args = command.arguments ?? {};
  if (!hub.getPrompt) return fail("This session's MCP hub does not serve prompts.");
  const problem = checkPrompt(hub.listServers(), server, prompt, args);
  if (problem) return fail(problem);
  try {
    // The server's own call timeout bounds the wait (a starting server is waited for).
    const result = await hub.getPrompt(server, prompt, args, new AbortController().signal);
    const messages = result.messages.map(
      (message): McpPromptMessageText => ({ role: message.role, text: contentText(message.content) }),
    );
    return {
      type: "mcp_prompt",
      server,
      prompt,
      ...(result.description ? { description: result.description } : {}),
      text: joinMessages(messages),
      messages,
    };
  } catch (error) {
    return fail(`The prompt ${prompt} of the MCP server "${server}" failed: ${messageOf(error)}`);
  }
}

/**
 * What is wrong with the request before asking the server: an unknown server, or (when the
 * server is connected and lists its prompts) an unknown prompt or a missing required argument.
 */
function checkPrompt(
  servers: readonly McpServerInfo[],
  server: string,
  prompt: string,
  args: Record<string, string>,
): string | undefined {
  const info = servers.find((candidate) => candidate.name === server);
  if (!info) return `No MCP server named "${server}".`;
  if (info.status !== "connected") return undefined; // the hub waits for it, or says why it cannot
  const declared = info.prompts?.find((candidate) => candidate.name === prompt);
  if (!declared) {
    const names = (info.prompts ?? []).map((candidate) => candidate.name);
    const offered = names.length > 0 ? `; it offers ${names.join(", ")}` : "; it offers none";
    return `The MCP server "${server}" has no prompt named "${prompt}"${offered}.`;
  }
  const missing = (declared.arguments ?? [])
    .filter((argument) => argument.required && !args[argument.name]?.trim())
    .map((argument) => argument.name);
  if (missing.length === 0) return undefined;
  const noun = missing.length === 1 ? "argument" : "arguments";
  return `The prompt ${prompt} of the MCP server "${server}" needs the ${noun} ${missing.join(", ")}.`;
}

/** One piece of prompt content as text: images and binary resources are named, not shown. */
function contentText(content: McpContent): string {
  switch (content.type) {
    case "text":
      return content.text;
    case "image":
      return `[image (${content.mimeType})]`;
    case "resource":
      return content.text !== undefined
        ? `[resource ${content.uri}]\n${content.text}`
        : `[resource ${content.uri}${content.mimeType ? ` (${content.mimeType})` : ""}, binary: not shown]`;
  }
}

/** The messages as one text; roles are named only when the prompt has assistant messages. */
function joinMessages(messages: readonly McpPromptMessageText[]): string {
  const named = messages.some((message) => message.role === "assistant");
  return messages
    .map((message) =>
      named ? `${message.role === "user" ? "User" : "Assistant"}: ${message.text}` : message.text,
    )
    .join("\n\n");
}

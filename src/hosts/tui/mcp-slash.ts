/**
 * MCP in the TUI: `/mcp` shows the servers, and each server's prompts are slash commands named
 * `/<server>:<prompt>`, whose arguments are typed after the name (`key=value`, or in the order
 * the prompt declares them, the last taking the rest of the line).
 */
import type { McpPrompt, McpServerSummary } from "../../protocol/index.js";
import type { SlashCommand, SlashContext } from "./slash-commands.js";
import type { StyledLine } from "./store.js";

const plain = (text: string): StyledLine => ({ kind: "plain", text });

/** The slash-command names of the servers' prompts. */
export function mcpPromptNames(servers: readonly McpServerSummary[]): string[] {
  return servers.flatMap((server) => server.prompts.map((prompt) => `${server.name}:${prompt.name}`));
}

export const MCP_COMMAND: SlashCommand = {
  name: "mcp",
  description: "MCP servers: status, tools and prompts (prompts run as /<server>:<prompt>)",
  run(_, ctx) {
    ctx
      .request({ type: "list_mcp_servers" }, ["mcp_servers"])
      .then((answer) => {
        if (answer.type !== "mcp_servers") return;
        if (answer.servers.length === 0)
          return ctx.print("No MCP servers configured (bowline mcp add, or ~/.bowline/mcp.json).");
        ctx.detail("MCP servers", answer.servers.flatMap(serverLines));
      })
      .catch((error: unknown) => ctx.print((error as Error).message, "error"));
  },
};

function serverLines(server: McpServerSummary): StyledLine[] {
  const counts =
    server.status === "connected" ? ` · ${server.toolCount} tools · ${server.resourceCount} resources` : "";
  const lines = [
    plain(`  ${server.name}  ${server.status}${counts}${server.error ? ` — ${server.error}` : ""}`),
  ];
  if (server.tools.length > 0) lines.push(plain(`    tools: ${shortList(server.tools, 8)}`));
  for (const prompt of server.prompts)
    lines.push(
      plain(
        `    /${server.name}:${prompt.name}${argumentHint(prompt)}${prompt.description ? ` — ${prompt.description}` : ""}`,
      ),
    );
  return lines;
}

const shortList = (items: string[], most: number) =>
  items.length <= most
    ? items.join(", ")
    : `${items.slice(0, most).join(", ")}, +${items.length - most} more`;

function argumentHint(prompt: McpPrompt): string {
  return (prompt.arguments ?? []).map((a) => (a.required ? ` <${a.name}>` : ` [${a.name}]`)).join("");
}

/**
 * Runs `/<server>:<prompt> args` when `name` is a known prompt: fetches it filled with the
 * arguments and sends its text as the person's message. False when no server offers it.
 */
export function runMcpPrompt(name: string, args: string, ctx: SlashContext): boolean {
  const colon = name.indexOf(":");
  if (colon <= 0) return false;
  const server = ctx.state().mcpServers?.find((s) => s.name === name.slice(0, colon));
  const prompt = server?.prompts.find((p) => p.name === name.slice(colon + 1));
  if (!server || !prompt) return false;
  const values = promptArguments(prompt, args);
  ctx
    .request({ type: "get_mcp_prompt", server: server.name, prompt: prompt.name, arguments: values }, [
      "mcp_prompt",
    ])
    .then((answer) => {
      if (answer.type !== "mcp_prompt") return;
      if (answer.text !== undefined) ctx.send(answer.text);
      else ctx.print(`/${name}: ${answer.error ?? "the server gave no prompt"}`, "warning");
    })
    .catch((error: unknown) => ctx.print((error as Error).message, "error"));
  return true;
}

/** `key=value` words by name (quotes group words); the rest fill the declared arguments in order. */
export function promptArguments(prompt: McpPrompt, args: string): Record<string, string> {
  const declared = (prompt.arguments ?? []).map((a) => a.name);
  const values: Record<string, string> = {};
  const loose: string[] = [];
  for (const word of args.match(/\w+="[^"]*"|\w+='[^']*'|"[^"]*"|'[^']*'|\S+/g) ?? []) {
    const named = /^(\w+)=(["']?)(.*)\2$/s.exec(word);
    if (named && declared.includes(named[1]!)) values[named[1]!] = named[3]!;
    else loose.push(word.replace(/^(["'])(.*)\1$/s, "$2"));
  }
  const open = declared.filter((name) => !(name in values));
  open.forEach((name, i) => {
    const rest = i === open.length - 1 ? loose.slice(i) : loose.slice(i, i + 1);
    if (rest.length > 0) values[name] = rest.join(" ");
  });
  return values;
}

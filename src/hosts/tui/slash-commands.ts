import type { Command, Event, McpServerSummary } from "../../protocol/index.js";
import { formatCost, formatTokens, promptTokens } from "../../protocol/index.js";
import { cacheHitPercent } from "./format.js";
import { mcpPromptNames, runMcpPrompt } from "./mcp-slash.js";
import type { StyledLine, Tone, TuiState } from "./store.js";
import { listWorkflows, workflowMessage, workflowNames } from "./workflows.js";

/** What a slash command can do: protocol commands, messages, and output on screen. */
export interface SlashContext {
  readonly cwd: string;
  /** The commands in use (built-in ones plus any a caller added). */
  readonly commands: readonly SlashCommand[];
  state(): TuiState;
  dispatch(command: Command): void;
  /** Sends a command and resolves with the first later event of one of the `answers` types. */
  request(command: Command, answers: readonly Event["type"][]): Promise<Event>;
  /** True while the agent works (a message would be queued). */
  busy(): boolean;
  /** Leaves this task for a stored one (the host opens it). */
  resume(taskId: string): void;
  /** Leaves this task (saved as it is) for a new one with an empty context. */
  newTask(): void;
  /** Sends a message as if typed (starts the task, or is queued while the agent works). */
  send(text: string): void;
  print(text: string, tone?: Tone): void;
  detail(title: string, lines: StyledLine[]): void;
  exit(): void;
}

export interface SlashCommand {
  name: string;
  /** How the arguments read in `/help`, e.g. `[focus]`. */
  args?: string;
  description: string;
  run(args: string, ctx: SlashContext): void;
}

export const INIT_PROMPT =
  "Write an AGENTS.md file at the root of this repository for coding agents: what the project is, how it is laid out, how to install, build, test and lint it (the exact commands), the code style and conventions to follow, and anything surprising. Read the code and configuration first; keep it short and accurate. If an AGENTS.md exists, improve it instead.";

export const BUILTIN_COMMANDS: SlashCommand[] = [
  {
    name: "help",
    description: "commands, workflows and keys",
    run: (_, ctx) => ctx.detail("Help", helpLines(ctx)),
  },
  {
    name: "mode",
    args: "[plan|act]",
    description: "show or switch plan / act mode (also Tab)",
    run(args, ctx) {
      const wanted = args.trim();
      if (wanted !== "" && wanted !== "plan" && wanted !== "act")
        return ctx.print("Usage: /mode [plan|act]", "warning");
      const mode = wanted || (ctx.state().mode === "plan" ? "act" : "plan");
      ctx.dispatch({ type: "set_mode", mode });
    },
  },
  {
    name: "compact",
    args: "[focus]",
    description: "summarise the conversation to free the context window",
    run: (args, ctx) => ctx.send(`/compact ${args}`.trim()),
  },
  {
    name: "cost",
    description: "tokens and dollars spent so far",
    run: (_, ctx) => ctx.print(costText(ctx.state())),
  },
  {
    name: "clear",
    description: "start a new task with an empty context (this one is kept: /resume)",
    run: (_, ctx) => ctx.newTask(),
  },
  {
    name: "init",
    description: "write an AGENTS.md for this repository",
    run: (_, ctx) => ctx.send(INIT_PROMPT),
  },
  { name: "exit", description: "leave Bowline (also Ctrl-C twice)", run: (_, ctx) => ctx.exit() },
];

/** Other names people type for a command. */
const ALIASES: Record<string, string> = { quit: "exit", new: "clear" };

/**
 * Runs `line` when it is a slash command or a workflow. Returns false when it is not one
 * (the caller sends it as a message); an unknown command is reported, not sent.
 */
export function runSlashCommand(line: string, commands: readonly SlashCommand[], ctx: SlashContext): boolean {
  const match = /^\/([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return false;
  const [, name, args = ""] = match;
  const command = commands.find((c) => c.name === name || ALIASES[name!] === c.name);
  if (command) {
    command.run(args, ctx);
    return true;
  }
  const workflow = listWorkflows(ctx.cwd).find((w) => w.name === name);
  const message = workflow && workflowMessage(workflow, args);
  if (message) ctx.send(message);
  else if (!runMcpPrompt(name!, args, ctx))
    ctx.print(`Unknown command /${name}. /help lists them.`, "warning");
  return true;
}

/** Commands, workflows and MCP prompts whose name starts with `prefix` (for the completion menu). */
export function completeSlash(
  prefix: string,
  commands: readonly SlashCommand[],
  cwd: string,
  mcpServers: readonly McpServerSummary[] = [],
): string[] {
  const names = [...commands.map((c) => c.name), ...workflowNames(cwd), ...mcpPromptNames(mcpServers)];
  return [...new Set(names)]
    .filter((name) => name.startsWith(prefix))
    .sort()
    .map((name) => `/${name}`);
}

function helpLines(ctx: SlashContext): StyledLine[] {
  const plain = (text: string): StyledLine => ({ kind: "plain", text });
  const commands = ctx.commands.map((c) =>
    plain(`  /${c.name}${c.args ? ` ${c.args}` : ""} — ${c.description}`),
  );
  const workflows = listWorkflows(ctx.cwd).map((w) => plain(`  /${w.name} — workflow: ${w.description}`));
  return [
    ...commands,
    ...(workflows.length > 0 ? [plain("Workflows (.bowline/workflows):"), ...workflows] : []),
    plain("Keys: Enter send · Alt-Enter or Ctrl-J new line · ↑/↓ history · @ mention a file"),
    plain("      Tab plan/act · Esc stop the agent · Ctrl-O last tool output"),
    plain("      Ctrl-L clear the screen · Ctrl-C twice exit"),
  ];
}

export function costText(state: TuiState): string {
  const usage = state.usage;
  const input = promptTokens(usage);
  const cost = usage.costUsd === undefined ? "cost unknown for this model" : formatCost(usage.costUsd);
  return `Spent: ${formatTokens(input)} tokens in (${cacheHitPercent(usage)}% from cache) · ${formatTokens(usage.outputTokens)} out · ${cost} · ${state.requests} requests`;
}

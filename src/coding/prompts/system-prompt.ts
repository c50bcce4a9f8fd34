import { platform, release } from "node:os";

export interface SystemPromptOptions {
  workspaceRoot: string;
  shell: string;
  date?: Date;
  /** `compact`: the short prompt for small local models. Default `full`. */
  flavour?: "full" | "compact";
  /**
   * The tools section of the XML text protocol (`toXmlToolSection`), placed after the opening
   * paragraph. Omit it with native tool calling: the tools then travel as schemas.
   */
  toolSection?: string;
  /**
   * Names of the tools offered this task; guidance about a tool that is not offered is left
   * out. Default: the built-in coding tools.
   */
  toolNames?: readonly string[];
  /** e.g. `linux 6.1.0`. Default: this machine's. */
  os?: string;
}

const BUILTIN_TOOLS = [
  "read_file",
  "write_to_file",
  "replace_in_file",
  "list_files",
  "search_files",
  "execute_command",
  "ask_followup_question",
  "attempt_completion",
];

/**
 * The system prompt: who Bowline is, how to work, the tools section on the XML protocol, and the
 * facts of the environment. With native tool calling, tools describe themselves through their
 * schemas, so they are not repeated here.
 */
export function buildSystemPrompt(options: SystemPromptOptions): string {
  const offered = new Set(options.toolNames ?? BUILTIN_TOOLS);
  const xml = options.toolSection !== undefined && options.toolSection !== "";
  const tools = xml ? `\n\n${options.toolSection}` : "";
  return options.flavour === "compact"
    ? `${compactGuidance(offered, xml)}${tools}\n\n${compactEnvironment(options)}`
    : `${fullGuidance(offered, xml, tools)}\n\n${environment(options)}`;
}

function fullGuidance(offered: ReadonlySet<string>, xml: boolean, tools: string): string {
  const has = (name: string) => offered.has(name);
  const lines = [
    xml
      ? "- Use a tool in every response until the task is done. Think briefly, then act."
      : "- Use one or more tools in every response until the task is done. Think briefly, then act.",
    `- Read the relevant code before changing it.${editAdvice(offered)}`,
    "- Paths are relative to the workspace root. You cannot read or write outside it.",
    has("execute_command")
      ? "- After a change, verify it: run the project's tests or the command that exercises it, and read the output."
      : "- After a change, verify it by reading back what you changed.",
    ...(has("execute_command")
      ? [
          "- Commands run non-interactively with no stdin; pass flags that avoid prompts. Long-running servers should not be started in the foreground.",
        ]
      : []),
    ...(has("ask_followup_question")
      ? [
          "- Ask the user with ask_followup_question only when you cannot proceed without information only they have.",
        ]
      : []),
    has("attempt_completion")
      ? "- When the task is complete and verified, call attempt_completion with a short, factual result: what you changed and how you verified it. Do not end the result with a question."
      : "- When the task is complete and verified, say what you changed and how you verified it.",
  ];
  return `You are Bowline, an autonomous coding agent. You complete the user's task in their repository by reading and searching code, editing files and running commands, using the tools provided.${tools}

# How to work
${lines.join("\n")}`;
}

function editAdvice(offered: ReadonlySet<string>): string {
  if (offered.has("replace_in_file"))
    return ` Prefer small, targeted edits with replace_in_file${offered.has("write_to_file") ? "; use write_to_file for new files or complete rewrites" : ""}.`;
  if (offered.has("apply_patch")) return " Edit files with apply_patch, in small, targeted hunks.";
  return "";
}

function compactGuidance(offered: ReadonlySet<string>, xml: boolean): string {
  const lines = [
    xml ? "- Use a tool in every message until the task is done." : "- Use tools until the task is done.",
    "- Read code before changing it; paths are relative to the workspace root.",
    offered.has("execute_command") ? "- Check your changes, e.g. by running the tests." : undefined,
    offered.has("attempt_completion") ? "- When done, call attempt_completion." : undefined,
  ].filter((line) => line !== undefined);
  return `You are Bowline, a coding agent. Do the user's task in their repository with your tools.\n${lines.join("\n")}`;
}

function environment(options: SystemPromptOptions): string {
  return `# Environment
- Workspace root: ${options.workspaceRoot}
- Operating system: ${osName(options)}
- Shell: ${options.shell}
- Today's date: ${isoDate(options)}`;
}

function compactEnvironment(options: SystemPromptOptions): string {
  return `Workspace root: ${options.workspaceRoot}. OS: ${osName(options)}. Shell: ${options.shell}. Date: ${isoDate(options)}.`;
}

const osName = (options: SystemPromptOptions) => options.os ?? `${platform()} ${release()}`;
const isoDate = (options: SystemPromptOptions) => (options.date ?? new Date()).toISOString().slice(0, 10);

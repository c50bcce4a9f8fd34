import type { ToolHandler } from "../../agent/tool.js";
import { checkNotIgnored, commandMentionsIgnored, type IgnoreRules } from "../ignore/index.js";
import type { Workspace } from "../workspace.js";

/** Tools whose paths are checked against the ignore file before they run. */
const PATH_TOOLS = new Set(["read_file", "write_to_file", "replace_in_file", "apply_patch"]);

/**
 * Wraps a tool so that a call naming a path blocked by `.bowlineignore` (or `.clineignore`)
 * is refused with a message the model can act on, before the tool runs: reads and edits by
 * their paths, commands by the paths their words name. Other tools are returned unchanged
 * (listing and search mark or drop ignored entries themselves).
 */
export function guardIgnored<I, D>(
  tool: ToolHandler<I, D>,
  ignore: IgnoreRules,
  workspace: Workspace,
): ToolHandler<I, D> {
  if (!PATH_TOOLS.has(tool.name) && tool.name !== "execute_command") return tool;
  return {
    ...tool,
    summarize: (input) => tool.summarize(input),
    approvalPaths: tool.approvalPaths ? (input) => tool.approvalPaths!(input) : undefined,
    async execute(input, ctx) {
      const blocked = blockedBy(tool, input, ignore, workspace);
      if (blocked) return { content: blocked, isError: true };
      return tool.execute(input, ctx);
    },
  };
}

function blockedBy(
  tool: ToolHandler,
  input: unknown,
  ignore: IgnoreRules,
  workspace: Workspace,
): string | undefined {
  if (tool.name === "execute_command") {
    const command = (input as { command?: unknown }).command;
    return typeof command === "string" ? commandMentionsIgnored(command, ignore, workspace) : undefined;
  }
  const paths = tool.approvalPaths?.(input) ?? [(input as { path?: unknown }).path];
  for (const path of paths) {
    if (typeof path !== "string") continue;
    let abs: string;
    try {
      abs = workspace.resolve(path);
    } catch {
      continue; // outside the workspace: the tool itself refuses it with its own message
    }
    const message = checkNotIgnored(ignore, abs, workspace);
    if (message) return message;
  }
  return undefined;
}

import { readFileSync } from "node:fs";
import { relative } from "node:path";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import { nestedAgentsFile } from "../instructions/rules.js";
import type { Workspace } from "../workspace.js";

const FILE_TOOLS = new Set(["read_file", "write_to_file", "replace_in_file", "apply_patch", "list_files"]);

/**
 * Nested `AGENTS.md` files (nearest wins): the first time the model works with a path below a
 * folder that has its own AGENTS.md, that file is appended to the tool's result, once per task.
 * The root AGENTS.md is in the system prompt already.
 */
export function createNestedRules(workspace: Workspace) {
  const shown = new Set<string>();
  return function withNestedRules<I, D>(tool: ToolHandler<I, D>): ToolHandler<I, D> {
    if (!FILE_TOOLS.has(tool.name)) return tool;
    return {
      ...tool,
      summarize: (input) => tool.summarize(input),
      approvalPaths: tool.approvalPaths ? (input) => tool.approvalPaths!(input) : undefined,
      async execute(input, ctx): Promise<ToolResult<D>> {
        const result = await tool.execute(input, ctx);
        if (result.isError) return result;
        const added = rulesFor(tool, input);
        if (added.length === 0) return result;
        const content =
          typeof result.content === "string"
            ? [{ type: "text" as const, text: result.content }]
            : [...result.content];
        content.push(...added.map((text) => ({ type: "text" as const, text })));
        return { ...result, content };
      },
    };
  };

  function rulesFor(tool: ToolHandler, input: unknown): string[] {
    const paths = tool.approvalPaths?.(input) ?? [(input as { path?: unknown }).path];
    const texts: string[] = [];
    for (const path of paths) {
      if (typeof path !== "string") continue;
      let abs: string;
      try {
        abs = workspace.resolve(path);
      } catch {
        continue; // outside the workspace: no project rules apply
      }
      const file = nestedAgentsFile(workspace.root, abs);
      if (!file || shown.has(file)) continue;
      shown.add(file);
      try {
        const source = relative(workspace.root, file);
        texts.push(
          `<rules source="${source}">\nThese rules apply to files under ${relative(workspace.root, file.slice(0, -"/AGENTS.md".length)) || "."}/:\n${readFileSync(file, "utf8").trim()}\n</rules>`,
        );
      } catch {
        // unreadable: nothing to add
      }
    }
    return texts;
  }
}

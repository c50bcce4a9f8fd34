import { splitCommand } from "./approval-preview.js";

/**
 * "Approve always" rules, in the syntax of the permission rules: a tool with a pattern
 * (`execute_command(npm test)`: a command prefix; `write_to_file(src/**)`: a path glob). The
 * core remembers them for the workspace and decides which calls they cover.
 */
export interface ApprovalRule {
  tool: string;
  pattern?: string;
}

export function formatRule(rule: ApprovalRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

/**
 * The rule "always" proposes for a call: for a command its program and sub-command
 * (`npm test`, `git status`), for a file tool everything under the file's folder (or the file
 * itself at the root), otherwise the tool.
 */
export function suggestRule(tool: string, input: unknown): ApprovalRule {
  const fields = (input ?? {}) as Record<string, unknown>;
  if (typeof fields.command === "string") {
    const words = (splitCommand(fields.command)[0] ?? "").split(/\s+/).filter(Boolean);
    const second = words[1];
    const takeTwo = second !== undefined && /^[a-z][\w:-]*$/i.test(second);
    const prefix = words.slice(0, takeTwo ? 2 : 1).join(" ");
    return prefix ? { tool, pattern: prefix } : { tool };
  }
  if (typeof fields.path === "string") {
    const slash = fields.path.lastIndexOf("/");
    return { tool, pattern: slash > 0 ? `${fields.path.slice(0, slash + 1)}**` : fields.path };
  }
  return { tool };
}

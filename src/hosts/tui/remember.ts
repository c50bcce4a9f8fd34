import { splitCommand } from "./approval-preview.js";

/**
 * "Approve always" rules, in the syntax of `--allow`: a tool name, or a tool with a pattern
 * (`execute_command(npm test)`: a command prefix; `write_to_file(src/)`: a path prefix).
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
 * (`npm test`, `git status`), for a file tool the file's folder (or the file itself at the
 * root), otherwise the tool.
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
    return { tool, pattern: slash > 0 ? fields.path.slice(0, slash + 1) : fields.path };
  }
  return { tool };
}

/**
 * Whether a rule covers a call. A command matches only when it is one simple command that
 * starts with the prefix at a word boundary: anything chained, piped or substituted asks again.
 */
export function ruleMatches(rule: ApprovalRule, tool: string, input: unknown): boolean {
  if (rule.tool !== tool) return false;
  if (rule.pattern === undefined) return true;
  const fields = (input ?? {}) as Record<string, unknown>;
  if (typeof fields.command === "string") {
    const command = fields.command.trim();
    if (/[;&|`$<>\n()]/.test(command)) return false;
    return command === rule.pattern || command.startsWith(`${rule.pattern} `);
  }
  if (typeof fields.path === "string")
    return fields.path.startsWith(rule.pattern) && !fields.path.includes("..");
  return false;
}

/** The answer text that asks the core to remember a rule (the core does not act on it yet). */
export function rememberText(rule: ApprovalRule): string {
  return `always allow ${formatRule(rule)}`;
}

import type { ApprovalCategory } from "../../agent/pipeline/tool-category.js";
import type { AnalysedCommand } from "./command-analysis.js";
import { programName } from "./options.js";
import { absolutePath, globToRegExp, isWithin, type PathContext } from "./paths.js";
import type { ShellWord } from "./shell-words.js";

export type RuleAction = "allow" | "ask" | "deny";

/**
 * One permission rule, written `tool` or `tool(pattern)`. `tool` is a tool name
 * (`execute_command`, `write_to_file`, `github__mcp__create_issue`), a category (`command`,
 * `edit`, `read`, `browser`, `mcp`) or `*`; MCP names may hold `*`. The pattern is a command
 * prefix for commands (`git status`), a path glob for reads and edits (`src/**`, `/etc/**`,
 * `~/.ssh/**`, or `:inside` / `:outside` the workspace), a URL glob for browser tools, and a
 * `<server>__mcp__<tool>` glob for `mcp`.
 */
export interface PermissionRule {
  action: RuleAction;
  tool: string;
  pattern?: string;
  /** Where it was written, for explanations: "user settings", "project settings", "--allow". */
  source: string;
}

/** A rule as written. */
export function formatRule(rule: PermissionRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

export function describeRule(rule: PermissionRule): string {
  return `${rule.action} ${formatRule(rule)} (${rule.source})`;
}

/** A rule written in settings is malformed. */
export class PermissionRuleError extends Error {
  readonly code = "invalid_permission_rule";
}

export function parsePermissionRule(text: string, action: RuleAction, source: string): PermissionRule {
  const match = /^\s*([A-Za-z0-9_.*-]+)\s*(?:\((.*)\))?\s*$/s.exec(text);
  if (!match) {
    throw new PermissionRuleError(
      `"${text}" is not a permission rule; write a tool or category, optionally with a pattern: execute_command(npm test), edit(src/**), github__mcp__*.`,
    );
  }
  const pattern = match[2]?.trim();
  return { action, tool: match[1]!, ...(pattern ? { pattern } : {}), source };
}

const COMMAND_TOOLS = new Set(["execute_command", "command"]);

/** True when `rule` is about calls of `toolName` in `category`. */
export function ruleApplies(rule: PermissionRule, toolName: string, category: ApprovalCategory): boolean {
  if (rule.tool === "*" || rule.tool === toolName || rule.tool === category) return true;
  if (category === "command") return COMMAND_TOOLS.has(rule.tool);
  return rule.tool.includes("*") && matchName(rule.tool, toolName);
}

const nameGlob = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+^$()|[\]\\{}?]/g, "\\$&").replaceAll("*", ".*")}$`);

/** A name glob (`github__mcp__*`) against a name. */
export function matchName(pattern: string, name: string): boolean {
  return nameGlob(pattern).test(name);
}

export type CommandMatch = "match" | "maybe" | "none";

/**
 * How a command prefix rule meets a command. `match`: the command starts with the rule's words.
 * `maybe`: the same program, and the rule's words appear in order among its words (options in
 * between), or some words are only known when it runs. With `strict`, only an exact prefix of
 * the command as written counts, its program named the same way, and only when the rule
 * spells out the words up to any code the command runs unseen (an allow rule).
 */
export function matchCommand(pattern: string, command: AnalysedCommand, strict: boolean): CommandMatch {
  const rule = splitPattern(pattern);
  if (rule.length === 0) return "match";
  if (strict) {
    const covered = rule.length > (command.opaque?.at ?? -1);
    return covered && isPrefix(rule, command.matchWords, false) ? "match" : "none";
  }
  const program = command.matchWords[0]!;
  if (program.dynamic) return "maybe";
  if (!wordMatches(rule[0]!, programName(program)) && !wordMatches(rule[0]!, program.text)) return "none";
  if (isPrefix(rule, command.matchWords, true) || isPrefix(rule, command.words, true)) return "match";
  const rest = command.matchWords.slice(1);
  if (isSubsequence(rule.slice(1), rest) || rest.some((word) => word.dynamic || word.glob)) return "maybe";
  return command.openArgs ? "maybe" : "none";
}

/** Pattern words: split on spaces (quotes group); a trailing `*` or `:*` only says "any arguments". */
function splitPattern(pattern: string): string[] {
  const words =
    pattern.match(/"[^"]*"|'[^']*'|\S+/g)?.map((word) => word.replace(/^(["'])(.*)\1$/, "$2")) ?? [];
  const last = words.at(-1);
  if (last === "*") words.pop();
  else if (last?.endsWith(":*")) words[words.length - 1] = last.slice(0, -2);
  return words.filter(Boolean);
}

function isPrefix(rule: readonly string[], words: readonly ShellWord[], byProgramName: boolean): boolean {
  if (words.length < rule.length) return false;
  return rule.every((expected, i) => {
    const word = words[i]!;
    if (word.dynamic) return false;
    return (
      wordMatches(expected, word.text) ||
      (i === 0 && byProgramName && wordMatches(expected, programName(word)))
    );
  });
}

function isSubsequence(rule: readonly string[], words: readonly ShellWord[]): boolean {
  let at = 0;
  for (const word of words) if (at < rule.length && !word.dynamic && wordMatches(rule[at]!, word.text)) at++;
  return at === rule.length;
}

/** A rule word matches a command word exactly, or as a glob when it holds `*`. */
function wordMatches(expected: string, actual: string): boolean {
  return expected.includes("*") ? nameGlob(expected).test(actual) : expected === actual;
}

/** True when a path pattern covers the absolute path `abs`. */
export function matchPath(pattern: string, abs: string, context: PathContext): boolean {
  if (pattern === ":inside") return isWithin(context.root, abs);
  if (pattern === ":outside") return !isWithin(context.root, abs);
  if (pattern === "*" || pattern === "**") return true;
  const absolutePattern = absolutePath(context, pattern);
  return globToRegExp(absolutePattern).test(abs);
}

/** True when a URL glob covers `url` (a pattern without `*` is a prefix). */
export function matchUrl(pattern: string, url: string): boolean {
  return pattern.includes("*") ? nameGlob(pattern).test(url) : url.startsWith(pattern);
}

import type { ApprovalPolicy } from "../agent/approval.js";
import { analyzeCommand } from "./safety/command-check.js";
import { decideCommandLine } from "./safety/command-verdict.js";
import { createPathContext } from "./safety/paths.js";
import { loadedShellParser } from "./safety/shell-parser.js";

/**
 * An allow rule: a tool name (`write_to_file`), or a tool with a pattern in parentheses. For
 * `execute_command` the pattern is a command prefix (`execute_command(npm test)`); for tools
 * with a `path` it is a path prefix (`write_to_file(src/)`).
 */
export interface AllowRule {
  tool: string;
  pattern?: string;
}

export function parseAllowRules(specs: readonly string[]): AllowRule[] {
  return specs
    .flatMap((spec) => splitTopLevel(spec))
    .map((spec) => spec.trim())
    .filter(Boolean)
    .map((spec) => {
      const match = /^([A-Za-z0-9_.-]+)\((.*)\)$/s.exec(spec);
      return match ? { tool: match[1]!, pattern: match[2]!.trim() } : { tool: spec };
    });
}

/** Splits `a,b(x, y),c` on the commas outside parentheses. */
function splitTopLevel(spec: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of spec) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

export interface NonInteractivePolicyOptions {
  /** Approve everything (`--yes`). */
  yes: boolean;
  allow: readonly AllowRule[];
}

/**
 * Approvals for runs nobody watches: read-only tools run; a mutating call runs only under
 * `--yes` or a matching allow rule, otherwise it is denied and the model is told how the
 * person could allow it.
 */
export function createNonInteractivePolicy(options: NonInteractivePolicyOptions): ApprovalPolicy {
  return (tool, input) => {
    if (!tool.mutates || options.yes) return { type: "allow" };
    if (options.allow.some((rule) => ruleMatches(rule, tool.name, input))) return { type: "allow" };
    return {
      type: "deny",
      reason: `Denied: ${tool.name} needs approval, and this non-interactive run does not allow it (the user can rerun with --yes or --allow ${tool.name}). Do not retry this call; continue with what is allowed or finish and explain what is needed.`,
    };
  };
}

function ruleMatches(rule: AllowRule, toolName: string, input: unknown): boolean {
  if (rule.tool !== toolName) return false;
  if (rule.pattern === undefined || rule.pattern === "" || rule.pattern === "*") return true;
  const fields = (input ?? {}) as Record<string, unknown>;
  if (typeof fields.command === "string") return commandMatches(rule.pattern, fields.command);
  if (typeof fields.path === "string") return fields.path.startsWith(rule.pattern);
  return false;
}

/**
 * A command line matches a prefix rule when every simple command it runs (through pipes,
 * `&&`, substitutions, `bash -c`, wrappers...) starts with the prefix at a word boundary or is
 * read-only, and it writes no file. Before the shell parser is loaded, only a single simple
 * command without shell operators can match.
 */
function commandMatches(prefix: string, command: string): boolean {
  if (!loadedShellParser()) {
    const trimmed = command.trim();
    if (/[;&|`$<>\n()]/.test(trimmed)) return false;
    return trimmed === prefix || trimmed.startsWith(`${prefix} `);
  }
  const verdict = decideCommandLine(analyzeCommand(command), {
    rules: [{ action: "allow", tool: "execute_command", pattern: prefix, source: "--allow" }],
    paths: createPathContext("/"),
    readOnlyAllowed: true,
    allCommands: false,
    readOutside: true,
    editInside: false,
  });
  return verdict.decision === "allow";
}

import fs from "node:fs";
import path from "node:path";
import { type PermissionRule, PermissionRuleError, parsePermissionRule } from "./permission-rules.js";

/**
 * Allow rules the person chose with "approve always", kept per workspace in
 * `<home>/remembered-rules.json` (mode 0600). They live in Bowline's home, not in the project:
 * a cloned repository cannot ship rules that pass as the person's own.
 */
export const REMEMBERED_SOURCE = "remembered for this workspace";

export function rememberedRulesPath(bowlineHome: string): string {
  return path.join(bowlineHome, "remembered-rules.json");
}

/** The workspace's remembered allow rules; a missing or unreadable store holds none. */
export function readRememberedRules(bowlineHome: string, workspaceRoot: string): PermissionRule[] {
  const texts = readStore(bowlineHome)[workspaceRoot] ?? [];
  return texts.flatMap((text) => {
    try {
      return [parsePermissionRule(text, "allow", REMEMBERED_SOURCE)];
    } catch {
      return []; // edited by hand into something else: ignored, like a rule never written
    }
  });
}

/**
 * Validates and stores an allow rule for the workspace; returns it. Throws
 * `PermissionRuleError` for a malformed rule, or one that would allow every command, every
 * edit or every tool (those are settings to write on purpose, not a key pressed in passing).
 */
export function rememberRule(bowlineHome: string, workspaceRoot: string, text: string): PermissionRule {
  const rule = parsePermissionRule(text, "allow", REMEMBERED_SOURCE);
  if (rule.pattern === undefined && BROAD_TOOLS.has(rule.tool)) {
    throw new PermissionRuleError(
      `"${text}" would allow every call of ${rule.tool}; remember a command prefix or a path instead, e.g. execute_command(npm test).`,
    );
  }
  const store = readStore(bowlineHome);
  const written = `${rule.tool}${rule.pattern === undefined ? "" : `(${rule.pattern})`}`;
  const existing = store[workspaceRoot] ?? [];
  if (!existing.includes(written)) store[workspaceRoot] = [...existing, written];
  writeStore(bowlineHome, store);
  return rule;
}

/** Rules without a pattern that would open too much at once. */
const BROAD_TOOLS = new Set(["*", "command", "execute_command", "edit", "mcp", "browser"]);

function readStore(bowlineHome: string): Record<string, string[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(rememberedRulesPath(bowlineHome), "utf8"));
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const store: Record<string, string[]> = {};
  for (const [workspace, rules] of Object.entries(parsed)) {
    if (Array.isArray(rules)) store[workspace] = rules.filter((r): r is string => typeof r === "string");
  }
  return store;
}

function writeStore(bowlineHome: string, store: Record<string, string[]>): void {
  const file = rememberedRulesPath(bowlineHome);
  fs.mkdirSync(bowlineHome, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

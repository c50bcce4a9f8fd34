import type { ApprovalPolicy } from "../../agent/approval.js";
import type { ApprovalSettings } from "../../agent/pipeline/approval-policy.js";
import {
  type ApprovalCategory,
  toolApprovalPaths,
  toolCategory,
} from "../../agent/pipeline/tool-category.js";
import { MCP_TOOL_ID, mcpToolName, parseMcpToolName } from "../../agent/pipeline/tool-names.js";
import type { ToolHandler } from "../../agent/tool.js";
import { decideToolApproval } from "../approvals/settings-policy.js";
import type { Workspace } from "../workspace.js";
import { analyzeCommand } from "./command-check.js";
import { type CommandVerdict, decideCommandLine } from "./command-verdict.js";
import type { Decided } from "./decision.js";
import { absolutePath, createPathContext, type PathContext, protectedReason } from "./paths.js";
import {
  describeRule,
  matchName,
  matchPath,
  matchUrl,
  type PermissionRule,
  ruleApplies,
} from "./permission-rules.js";

export interface PermissionPolicyOptions {
  settings: ApprovalSettings;
  rules: readonly PermissionRule[];
  workspace: Workspace;
  /** Absolute directories outside the workspace whose files always need approval to edit (`~/.bowline`). */
  protectedDirs?: readonly string[];
  /** Commands run in the OS sandbox; with `autoApprove`, commands no rule decides run without asking. */
  sandbox?: { active: boolean; autoApprove: boolean };
}

export interface PermissionVerdict extends Decided {
  /** For commands: every simple command and written file, with what decided it. */
  command?: CommandVerdict;
}

/**
 * Decides one call: deny and ask rules first (deny wins; YOLO does not lift deny rules), then
 * protected paths (always ask, except under YOLO), then allow rules, then the approval
 * settings. `toolName` is the name the model called. Never throws.
 */
export function decidePermission(
  options: PermissionPolicyOptions,
  tool: ToolHandler,
  input: unknown,
  toolName: string = tool.name,
): PermissionVerdict {
  const category = toolCategory(tool);
  if (category === "none") return { decision: "allow", reason: "this tool needs no approval" };
  if (category === "interactive") return { decision: "allow", reason: "this tool asks the person itself" };
  const paths = createPathContext(options.workspace.root, options.protectedDirs);
  if (category === "command") return decideCommandCall(options, paths, input);
  const subjects = subjectsOf(options, paths, tool, input, toolName, category);
  const rules = options.rules.filter((rule) => ruleApplies(rule, subjects.name, category));
  const matches = (rule: PermissionRule) =>
    rule.pattern === undefined ||
    (subjects.items.length > 0 && subjects.items.every((item) => subjects.match(rule.pattern!, item)));
  const touches = (rule: PermissionRule) =>
    rule.pattern === undefined || subjects.items.some((item) => subjects.match(rule.pattern!, item));
  const deny = rules.find((rule) => rule.action === "deny" && touches(rule));
  if (deny) return { decision: "deny", reason: `${toolName} is denied`, rule: describeRule(deny) };
  if (options.settings.yolo) return { decision: "allow", reason: "YOLO mode approves everything not denied" };
  const askRule = rules.find((rule) => rule.action === "ask" && touches(rule));
  if (askRule)
    return { decision: "ask", reason: "an ask rule matches", rule: describeRule(askRule), firm: true };
  if (category === "edit") {
    const guarded = subjects.items.map((item) => protectedReason(paths, item)).find(Boolean);
    if (guarded)
      return { decision: "ask", reason: `editing always needs approval here: ${guarded}`, firm: true };
  }
  const allowRule = rules.find((rule) => rule.action === "allow" && matches(rule));
  if (allowRule) return { decision: "allow", reason: "an allow rule matches", rule: describeRule(allowRule) };
  const verdict = decideToolApproval(
    { settings: options.settings, workspace: options.workspace, protectedDirs: options.protectedDirs },
    tool,
    input,
    toolName,
  );
  return { decision: verdict.decision, reason: verdict.reason };
}

interface Subjects {
  /** The name rules are matched on (`github__mcp__create_issue` for MCP calls). */
  name: string;
  /** Absolute paths, URLs or MCP names the call concerns. */
  items: string[];
  match(pattern: string, item: string): boolean;
}

function subjectsOf(
  options: PermissionPolicyOptions,
  paths: PathContext,
  tool: ToolHandler,
  input: unknown,
  toolName: string,
  category: ApprovalCategory,
): Subjects {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  if (category === "mcp") {
    const parsed = parseMcpToolName(toolName);
    const generic =
      toolName === MCP_TOOL_ID &&
      typeof fields.server_name === "string" &&
      typeof fields.tool_name === "string";
    const name = parsed
      ? mcpToolName(parsed.server, parsed.tool)
      : generic
        ? mcpToolName(fields.server_name as string, fields.tool_name as string)
        : toolName;
    return { name, items: [name], match: matchName };
  }
  if (category === "browser") {
    const url = typeof fields.url === "string" ? fields.url : undefined;
    return { name: toolName, items: url ? [url] : [], match: matchUrl };
  }
  let requested: string[] = [];
  try {
    requested = toolApprovalPaths(tool, input);
  } catch {
    // Unknown paths: no pattern can match, so only whole-tool rules and the settings decide.
  }
  const items = requested.map((item) => resolvePath(options.workspace, paths, item));
  return { name: toolName, items, match: (pattern, item) => matchPath(pattern, item, paths) };
}

function resolvePath(workspace: Workspace, paths: PathContext, requested: string): string {
  try {
    return workspace.resolve(requested);
  } catch {
    return absolutePath(paths, requested);
  }
}

function decideCommandCall(
  options: PermissionPolicyOptions,
  paths: PathContext,
  input: unknown,
): PermissionVerdict {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  if (typeof fields.command !== "string")
    return { decision: "ask", reason: "the call has no command", firm: true };
  const { settings } = options;
  const command = decideCommandLine(analyzeCommand(fields.command), {
    rules: options.rules,
    paths,
    readOnlyAllowed: settings.safeCommands,
    allCommands: settings.safeCommands && settings.allCommands,
    readOutside: settings.readOutsideWorkspace,
    editInside: settings.editInsideWorkspace,
  });
  const suspect = command.commands.find((entry) => entry.suspect);
  if (command.decision === "deny") return { ...command, command };
  if (settings.yolo) {
    if (suspect)
      return { decision: "deny", reason: `under YOLO, ${suspect.reason}`, rule: suspect.rule, command };
    return { decision: "allow", reason: "YOLO mode approves everything not denied", command };
  }
  const sandbox = options.sandbox;
  const unsandboxed = fields.unsandboxed === true;
  if (sandbox?.active && unsandboxed) {
    return { decision: "ask", reason: "the command asks to run outside the sandbox", firm: true, command };
  }
  const flagged = fields.requires_approval === true || fields.requires_approval === "true";
  if (flagged && command.decision === "allow" && !(settings.safeCommands && settings.allCommands)) {
    return {
      decision: "ask",
      reason: "the model marked this command as needing approval",
      firm: true,
      command,
    };
  }
  if (command.decision === "ask" && !command.firm && sandbox?.active && sandbox.autoApprove) {
    return { decision: "allow", reason: "it runs in the sandbox (sandbox.autoApprove)", command };
  }
  return { ...command, command };
}

export interface ComposeOptions {
  decide(tool: ToolHandler, input: unknown, calledName?: string): PermissionVerdict;
  /** The host's answer for calls the permissions leave to it (ask, `--allow` rules, `--yes`). */
  host: ApprovalPolicy;
  /** A person can answer an ask; otherwise a firm ask is denied. */
  interactive: boolean;
}

/**
 * The executor's policy: permission denies and allows stand; a firm ask (ask rule, protected
 * path, something not understood) goes to the person, or is denied when nobody can answer; any
 * other ask is the host's to decide.
 */
export function composeApprovalPolicy(options: ComposeOptions): ApprovalPolicy {
  return (tool, input, calledName) => {
    const verdict = options.decide(tool, input, calledName);
    const by = verdict.rule ? ` by the rule ${verdict.rule}` : "";
    if (verdict.decision === "deny") {
      return {
        type: "deny",
        reason: `Denied${by}: ${verdict.reason}. The user's permission rules forbid this call; do not retry it or work around it. Continue with what is allowed, or explain what is needed.`,
      };
    }
    if (verdict.decision === "allow") return { type: "allow" };
    if (!verdict.firm) return options.host(tool, input, calledName);
    if (options.interactive) return { type: "ask" };
    return {
      type: "deny",
      reason: `Denied: this call always needs the user's approval (${verdict.reason}), and nobody can be asked in this run. Do not retry it; continue with what is allowed or finish and explain what is needed.`,
    };
  };
}

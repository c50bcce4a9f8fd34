import * as z from "zod/mini";
import type { ApprovalCategory } from "./tool-category.js";
import { MCP_TOOL_ID, mcpToolName, parseMcpToolName } from "./tool-names.js";

/**
 * Which calls run without asking the person, per approval category. A wider setting only counts
 * when its narrower one is on: `readOutsideWorkspace` needs `readInsideWorkspace`,
 * `editOutsideWorkspace` needs `editInsideWorkspace`, `allCommands` needs `safeCommands`.
 */
export const approvalSettingsSchema = z.strictObject({
  readInsideWorkspace: z.boolean(),
  readOutsideWorkspace: z.boolean(),
  editInsideWorkspace: z.boolean(),
  editOutsideWorkspace: z.boolean(),
  /** Commands that pass the built-in read-only check and that the model did not flag. */
  safeCommands: z.boolean(),
  allCommands: z.boolean(),
  /** Browser and web tools. */
  browser: z.boolean(),
  /** Every MCP tool. */
  mcp: z.boolean(),
  /** MCP tools approved one by one, as `<server>__mcp__<tool>`. */
  mcpAlwaysAllow: z.array(
    z.string().check(z.regex(/^.+__mcp__.+$/, { error: "must be <server>__mcp__<tool>" })),
  ),
  /** Everything runs without asking. */
  yolo: z.boolean(),
});

export type ApprovalSettings = z.infer<typeof approvalSettingsSchema>;

/** A settings file: any subset of the settings. */
export const approvalSettingsFileSchema = z.partial(approvalSettingsSchema);
export type ApprovalSettingsFile = z.infer<typeof approvalSettingsFileSchema>;

/** Reads inside the workspace run; everything else asks. */
export const DEFAULT_APPROVAL_SETTINGS: Readonly<ApprovalSettings> = Object.freeze({
  readInsideWorkspace: true,
  readOutsideWorkspace: false,
  editInsideWorkspace: false,
  editOutsideWorkspace: false,
  safeCommands: false,
  allCommands: false,
  browser: false,
  mcp: false,
  mcpAlwaysAllow: [],
  yolo: false,
});

/** The built-in classifier's verdict on a shell command. */
export type CommandCheck = { readOnly: true } | { readOnly: false; reason: string };

/** One call, as the approval decision sees it. The functions must not throw. */
export interface ApprovalRequest {
  category: ApprovalCategory;
  /** The name the model called (`github__mcp__create_issue` for an MCP tool). */
  toolName: string;
  input: unknown;
  /** Paths the call reads or writes. Default: the input's `path` string, if any. */
  paths?: readonly string[];
  isInsideWorkspace(path: string): boolean;
  /** Paths that always need approval to edit (Bowline's own settings and hooks, `.git`). */
  isProtectedPath?(path: string): boolean;
  /** The read-only check for `command` calls. Without it no command counts as safe. */
  checkCommand?(command: string): CommandCheck;
}

/** `reason` is for display: why the call runs, or why the person is asked. */
export interface ApprovalVerdict {
  decision: "allow" | "ask";
  reason: string;
}

const allow = (reason: string): ApprovalVerdict => ({ decision: "allow", reason });
const ask = (reason: string): ApprovalVerdict => ({ decision: "ask", reason });

/** Decides whether a call runs without asking. Never throws. */
export function decideApproval(settings: ApprovalSettings, request: ApprovalRequest): ApprovalVerdict {
  switch (request.category) {
    case "none":
      return allow("this tool needs no approval");
    case "interactive":
      return allow("this tool asks the person itself");
    default:
      if (settings.yolo) return allow("YOLO mode approves everything");
  }
  switch (request.category) {
    case "read":
      return decideFileAccess("read", settings.readInsideWorkspace, settings.readOutsideWorkspace, request);
    case "edit":
      return decideFileAccess("edit", settings.editInsideWorkspace, settings.editOutsideWorkspace, request);
    case "command":
      return decideCommand(settings, request);
    case "browser":
      return settings.browser ? allow("browser use is auto-approved") : ask("browser use needs approval");
    case "mcp":
      return decideMcp(settings, request);
  }
}

function decideFileAccess(
  verb: "read" | "edit",
  inside: boolean,
  outside: boolean,
  request: ApprovalRequest,
): ApprovalVerdict {
  const paths = request.paths ?? defaultPaths(request.input);
  if (verb === "edit") {
    const guarded = paths.find((path) => request.isProtectedPath?.(path));
    if (guarded !== undefined) return ask(`editing ${guarded} always needs approval`);
  }
  // A read names no file outside when it names none; an edit without a path is treated as outside.
  const external = paths.filter((path) => !request.isInsideWorkspace(path));
  const allInside = external.length === 0 && (paths.length > 0 || verb === "read");
  if (allInside) {
    return inside ? allow(`${verb}s inside the workspace are auto-approved`) : ask(`${verb}s need approval`);
  }
  const where = external.length > 0 ? `${external[0]} is outside the workspace` : "the path is unknown";
  if (inside && outside) return allow(`${verb}s outside the workspace are auto-approved (${where})`);
  return ask(`${verb}s outside the workspace need approval (${where})`);
}

function decideCommand(settings: ApprovalSettings, request: ApprovalRequest): ApprovalVerdict {
  const fields = asRecord(request.input);
  const command = typeof fields.command === "string" ? fields.command : undefined;
  if (command === undefined) return ask("the call has no command");
  if (settings.safeCommands && settings.allCommands) return allow("all commands are auto-approved");
  // The model's flag is advice: it can make a command ask, never make it run.
  const flagged = fields.requires_approval === true || fields.requires_approval === "true";
  if (flagged) return ask("the model marked this command as needing approval");
  const check: CommandCheck = request.checkCommand?.(command) ?? {
    readOnly: false,
    reason: "no command classifier is configured",
  };
  if (!check.readOnly) return ask(`not a read-only command: ${check.reason}`);
  return settings.safeCommands
    ? allow("read-only commands are auto-approved")
    : ask("read-only commands need approval");
}

function decideMcp(settings: ApprovalSettings, request: ApprovalRequest): ApprovalVerdict {
  if (settings.mcp) return allow("MCP tools are auto-approved");
  const name = mcpNameOf(request.toolName, request.input);
  if (name !== undefined && settings.mcpAlwaysAllow.includes(name)) return allow(`${name} is always allowed`);
  return ask(`MCP tool ${name ?? request.toolName} needs approval`);
}

/** `<server>__mcp__<tool>` for an MCP call, from its name or from use_mcp_tool's arguments. */
function mcpNameOf(toolName: string, input: unknown): string | undefined {
  const parsed = parseMcpToolName(toolName);
  if (parsed) return mcpToolName(parsed.server, parsed.tool);
  const fields = asRecord(input);
  if (
    toolName === MCP_TOOL_ID &&
    typeof fields.server_name === "string" &&
    typeof fields.tool_name === "string"
  ) {
    return mcpToolName(fields.server_name, fields.tool_name);
  }
  return undefined;
}

function defaultPaths(input: unknown): string[] {
  const path = asRecord(input).path;
  return typeof path === "string" ? [path] : [];
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

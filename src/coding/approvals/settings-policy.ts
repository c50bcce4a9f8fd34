import path from "node:path";
import type { ApprovalPolicy } from "../../agent/approval.js";
import {
  type ApprovalSettings,
  type ApprovalVerdict,
  decideApproval,
} from "../../agent/pipeline/approval-policy.js";
import {
  type ToolApprovalInfo,
  toolApprovalPaths,
  toolCategory,
} from "../../agent/pipeline/tool-category.js";
import type { ToolHandler } from "../../agent/tool.js";
import { checkReadOnlyLine } from "../safety/command-check.js";
import { createPathContext, isWithin, protectedReason } from "../safety/paths.js";
import { loadedShellParser } from "../safety/shell-parser.js";
import type { Workspace } from "../workspace.js";
import { checkReadOnlyCommand } from "./read-only-command.js";

export interface SettingsApprovalOptions {
  settings: ApprovalSettings;
  workspace: Workspace;
  /** Absolute directories outside the workspace whose files always need approval to edit (e.g. `~/.bowline`). */
  protectedDirs?: readonly string[];
}

/**
 * Decides one call under the approval settings, with the workspace's path checks and the built-in
 * read-only command check. `toolName` is the name the model called (defaults to the handler's).
 * Never throws.
 */
export function decideToolApproval(
  options: SettingsApprovalOptions,
  tool: ToolHandler & ToolApprovalInfo,
  input: unknown,
  toolName: string = tool.name,
): ApprovalVerdict {
  const { workspace, settings } = options;
  const category = toolCategory(tool);
  let paths: string[] = [];
  try {
    if (category === "read" || category === "edit") paths = toolApprovalPaths(tool, input);
  } catch (error) {
    // Which files the call touches is unknown: only YOLO runs it.
    if (settings.yolo) return { decision: "allow", reason: "YOLO mode approves everything" };
    const reason = `cannot tell which files the call touches (${error instanceof Error ? error.message : String(error)})`;
    return { decision: "ask", reason };
  }
  return decideApproval(settings, {
    category,
    toolName,
    input,
    paths,
    isInsideWorkspace: (requested) => isInside(workspace, requested),
    isProtectedPath: (requested) => isProtected(options, requested),
    // The shell analyser once loaded; the stricter word-based check before.
    checkCommand: (command) =>
      loadedShellParser() ? checkReadOnlyLine(command, workspace.root) : checkReadOnlyCommand(command),
  });
}

/** The settings as the executor's `ApprovalPolicy` (the reason is dropped; use `decideToolApproval` to show it). */
export function createSettingsApprovalPolicy(options: SettingsApprovalOptions): ApprovalPolicy {
  return (tool, input) => ({ type: decideToolApproval(options, tool, input).decision });
}

function isInside(workspace: Workspace, requested: string): boolean {
  try {
    workspace.resolve(requested);
    return true;
  } catch {
    // Outside the root, or not checkable (ELOOP, EACCES): approval decides as for outside.
    return false;
  }
}

/**
 * `.git`, `.bowline`, ignore and `.env` files in the workspace, and the extra protected
 * directories. (Outside the workspace the edit settings decide here; the permission policy in
 * ../safety/ always asks for those.)
 */
function isProtected(options: SettingsApprovalOptions, requested: string): boolean {
  const { workspace } = options;
  let abs: string;
  try {
    abs = workspace.resolve(requested);
  } catch {
    abs = path.resolve(workspace.root, requested);
  }
  const context = createPathContext(workspace.root, options.protectedDirs);
  const inProtectedDir = context.protectedDirs.some((dir) => isWithin(path.resolve(dir), abs));
  return (inProtectedDir || isWithin(workspace.root, abs)) && protectedReason(context, abs) !== undefined;
}

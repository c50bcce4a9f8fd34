import type { ToolHandler } from "../tool.js";

/**
 * Which approval setting governs a tool's calls.
 * - `read`: reads files (inside or outside the workspace).
 * - `edit`: changes files.
 * - `command`: runs a shell command.
 * - `browser`: drives a browser or fetches from the web.
 * - `mcp`: calls a tool of an MCP server.
 * - `interactive`: talks to the person (the call is itself the question); never needs approval.
 * - `none`: changes nothing and reads nothing private (e.g. attempt_completion); never needs approval.
 */
export type ApprovalCategory = "read" | "edit" | "command" | "browser" | "mcp" | "interactive" | "none";

/**
 * Optional approval facts a tool may declare beside the ToolHandler contract (to be merged into
 * `ToolHandler`).
 */
export interface ToolApprovalInfo<I = any> {
  /** Default: `mutates ? "edit" : "read"`. */
  readonly category?: ApprovalCategory;
  /**
   * The paths a call reads or writes, as the model gave them, for the inside/outside-workspace
   * decision. Default: the input's `path` field when it is a string. Contract: must not throw.
   */
  approvalPaths?(input: I): string[];
}

/** A ToolHandler that may carry the optional approval fields. */
export type CategorizedToolHandler<I = any, D = unknown> = ToolHandler<I, D> & ToolApprovalInfo<I>;

export function toolCategory(handler: ToolHandler & ToolApprovalInfo): ApprovalCategory {
  return handler.category ?? (handler.mutates ? "edit" : "read");
}

/** The paths a call touches: the tool's own `approvalPaths`, else the input's `path` string. */
export function toolApprovalPaths(handler: ToolHandler & ToolApprovalInfo, input: unknown): string[] {
  if (handler.approvalPaths) return handler.approvalPaths(input);
  const path = (input as { path?: unknown } | null | undefined)?.path;
  return typeof path === "string" ? [path] : [];
}

/** `handler` with `category` set, for tools defined before the contract carried it. */
export function withCategory<H extends ToolHandler>(
  handler: H,
  category: ApprovalCategory,
): H & ToolApprovalInfo {
  return Object.assign(Object.create(handler) as H, { category });
}

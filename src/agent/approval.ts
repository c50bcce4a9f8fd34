import type { ToolHandler } from "./tool.js";

/** What the approval rules say about one tool call before it runs. */
export type ApprovalDecision =
  | { type: "allow" }
  | { type: "deny"; reason: string }
  /** The person must be asked. */
  | { type: "ask" };

/**
 * Decides whether a call may run without asking. `calledName` is the name the model called (an
 * MCP tool's `server__mcp__tool`, where `tool` is the shared `use_mcp_tool` handler).
 * Contract: never throws.
 */
export type ApprovalPolicy = (tool: ToolHandler, input: unknown, calledName?: string) => ApprovalDecision;

/** The person's answer to an approval ask. */
export type ApprovalAnswer = { approved: true } | { approved: false; feedback?: string };

/** Read-only tools run; everything else is allowed only when `allowAll` is set. */
export function createDefaultApprovalPolicy(options: { allowAll: boolean }): ApprovalPolicy {
  return (tool) => {
    if (!tool.mutates || options.allowAll) return { type: "allow" };
    return { type: "ask" };
  };
}

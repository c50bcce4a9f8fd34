import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ApprovalRequest,
  type ApprovalSettings,
  DEFAULT_APPROVAL_SETTINGS,
  decideApproval,
} from "../../../src/agent/pipeline/approval-policy.js";
import { toolApprovalPaths, toolCategory, withCategory } from "../../../src/agent/pipeline/tool-category.js";
import type { ToolHandler } from "../../../src/agent/tool.js";

const settings = (overrides: Partial<ApprovalSettings> = {}): ApprovalSettings => ({
  ...DEFAULT_APPROVAL_SETTINGS,
  ...overrides,
});

/** Paths starting with `/ws/` or relative ones are inside; a toy classifier reads `ls` only. */
const request = (overrides: Partial<ApprovalRequest>): ApprovalRequest => ({
  category: "read",
  toolName: "read_file",
  input: {},
  isInsideWorkspace: (path) => !path.startsWith("/") || path.startsWith("/ws/"),
  isProtectedPath: (path) => path.startsWith(".bowline/"),
  checkCommand: (command) =>
    command.startsWith("ls") ? { readOnly: true } : { readOnly: false, reason: "toy says no" },
  ...overrides,
});

const decide = (s: ApprovalSettings, r: Partial<ApprovalRequest>) => decideApproval(s, request(r)).decision;

describe("decideApproval defaults", () => {
  it("allow reads inside the workspace and ask for everything else", () => {
    const s = settings();
    expect(decide(s, { input: { path: "src/a.ts" } })).toBe("allow");
    expect(decide(s, { input: { path: "/etc/passwd" } })).toBe("ask");
    expect(decide(s, { category: "edit", toolName: "write_to_file", input: { path: "a" } })).toBe("ask");
    expect(decide(s, { category: "command", toolName: "execute_command", input: { command: "ls" } })).toBe(
      "ask",
    );
    expect(decide(s, { category: "browser", toolName: "browser_action" })).toBe("ask");
    expect(decide(s, { category: "mcp", toolName: "gh__mcp__issue" })).toBe("ask");
  });

  it("never ask for interactive tools and tools that need no approval", () => {
    expect(decide(settings(), { category: "interactive", toolName: "ask_followup_question" })).toBe("allow");
    expect(decide(settings(), { category: "none", toolName: "attempt_completion" })).toBe("allow");
  });

  it("give a reason for display", () => {
    const verdict = decideApproval(settings(), request({ input: { path: "/etc/passwd" } }));
    expect(verdict).toEqual({
      decision: "ask",
      reason: "reads outside the workspace need approval (/etc/passwd is outside the workspace)",
    });
  });
});

describe("file reads and edits", () => {
  it("allow outside paths only when both the inside and the outside setting are on", () => {
    const outside = { input: { path: "/etc/hosts" } };
    expect(decide(settings({ readOutsideWorkspace: true }), outside)).toBe("allow");
    expect(decide(settings({ readInsideWorkspace: false, readOutsideWorkspace: true }), outside)).toBe("ask");
    expect(decide(settings({ readInsideWorkspace: false }), { input: { path: "a" } })).toBe("ask");
    const edit = { category: "edit" as const, toolName: "write_to_file" };
    expect(decide(settings({ editInsideWorkspace: true }), { ...edit, input: { path: "/ws/a" } })).toBe(
      "allow",
    );
    expect(decide(settings({ editInsideWorkspace: true }), { ...edit, input: { path: "/tmp/a" } })).toBe(
      "ask",
    );
    expect(
      decide(settings({ editInsideWorkspace: true, editOutsideWorkspace: true }), {
        ...edit,
        input: { path: "/tmp/a" },
      }),
    ).toBe("allow");
    expect(decide(settings({ editOutsideWorkspace: true }), { ...edit, input: { path: "/tmp/a" } })).toBe(
      "ask",
    );
  });

  it("need every path inside for the inside setting", () => {
    const s = settings({ editInsideWorkspace: true });
    expect(decide(s, { category: "edit", paths: ["a", "b"] })).toBe("allow");
    expect(decide(s, { category: "edit", paths: ["a", "/tmp/b"] })).toBe("ask");
  });

  it("treat a read without a path as inside and an edit without a path as outside", () => {
    expect(decide(settings(), { category: "read", input: { regex: "x" } })).toBe("allow");
    expect(decide(settings({ editInsideWorkspace: true }), { category: "edit", input: {} })).toBe("ask");
    expect(
      decide(settings({ editInsideWorkspace: true, editOutsideWorkspace: true }), {
        category: "edit",
        input: {},
      }),
    ).toBe("allow");
  });

  it("always ask before editing a protected path, unless YOLO", () => {
    const s = settings({ editInsideWorkspace: true, editOutsideWorkspace: true });
    const verdict = decideApproval(
      s,
      request({ category: "edit", input: { path: ".bowline/hooks/PreToolUse" } }),
    );
    expect(verdict).toEqual({
      decision: "ask",
      reason: "editing .bowline/hooks/PreToolUse always needs approval",
    });
    expect(decide(settings({ yolo: true }), { category: "edit", input: { path: ".bowline/x" } })).toBe(
      "allow",
    );
    expect(decide(s, { category: "read", input: { path: ".bowline/x" } })).toBe("allow");
  });
});

describe("commands: requires_approval is advice", () => {
  const command = (text: string, requiresApproval?: unknown) => ({
    category: "command" as const,
    toolName: "execute_command",
    input:
      requiresApproval === undefined
        ? { command: text }
        : { command: text, requires_approval: requiresApproval },
  });
  const safe = settings({ safeCommands: true });

  it("allow a read-only command the model did not flag, under safeCommands", () => {
    expect(decide(safe, command("ls -la", false))).toBe("allow");
    expect(decide(safe, command("ls -la"))).toBe("allow");
    expect(decide(settings(), command("ls -la", false))).toBe("ask");
  });

  it("ask for a command that fails the check, even when the model says it is safe", () => {
    const verdict = decideApproval(safe, request(command("rm -rf x", false)));
    expect(verdict).toEqual({ decision: "ask", reason: "not a read-only command: toy says no" });
  });

  it("ask when the model flags a command, even a read-only one", () => {
    expect(decide(safe, command("ls", true))).toBe("ask");
    expect(decide(safe, command("ls", "true"))).toBe("ask");
    expect(decideApproval(safe, request(command("ls", true))).reason).toMatch(/model marked/);
  });

  it("run anything under allCommands (with safeCommands) or YOLO", () => {
    expect(decide(settings({ safeCommands: true, allCommands: true }), command("rm -rf x", true))).toBe(
      "allow",
    );
    expect(decide(settings({ allCommands: true }), command("rm -rf x", false))).toBe("ask");
    expect(decide(settings({ yolo: true }), command("rm -rf x", true))).toBe("allow");
  });

  it("ask when there is no command or no classifier", () => {
    expect(decide(safe, { category: "command", toolName: "execute_command", input: {} })).toBe("ask");
    expect(decide(safe, { ...command("ls", false), checkCommand: undefined })).toBe("ask");
  });
});

describe("browser and MCP", () => {
  it("follow the browser setting", () => {
    expect(decide(settings({ browser: true }), { category: "browser", toolName: "web_fetch" })).toBe("allow");
  });

  it("allow MCP tools by the mcp setting or by name", () => {
    const named = settings({ mcpAlwaysAllow: ["gh__mcp__list_issues"] });
    expect(decide(settings({ mcp: true }), { category: "mcp", toolName: "gh__mcp__delete_repo" })).toBe(
      "allow",
    );
    expect(decide(named, { category: "mcp", toolName: "gh__mcp__list_issues" })).toBe("allow");
    expect(decide(named, { category: "mcp", toolName: "gh__mcp__delete_repo" })).toBe("ask");
    expect(
      decide(named, {
        category: "mcp",
        toolName: "use_mcp_tool",
        input: { server_name: "gh", tool_name: "list_issues" },
      }),
    ).toBe("allow");
    expect(
      decide(named, {
        category: "mcp",
        toolName: "use_mcp_tool",
        input: { server_name: "gh", tool_name: "other" },
      }),
    ).toBe("ask");
  });
});

describe("YOLO", () => {
  it("allows every category", () => {
    const s = settings({ yolo: true });
    for (const category of ["read", "edit", "command", "browser", "mcp"] as const) {
      expect(decide(s, { category, input: { path: "/anywhere", command: "rm -rf /" } })).toBe("allow");
    }
  });
});

describe("tool categories", () => {
  const tool = (mutates: boolean): ToolHandler => ({
    name: "t",
    description: "",
    inputSchema: z.object({}),
    mutates,
    summarize: () => "t",
    execute: async () => ({ content: "" }),
  });

  it("fall back to mutates, and honour a declared category", () => {
    expect(toolCategory(tool(true))).toBe("edit");
    expect(toolCategory(tool(false))).toBe("read");
    const tagged = withCategory(tool(true), "command");
    expect(toolCategory(tagged)).toBe("command");
    expect(tagged.name).toBe("t");
    expect(tagged.mutates).toBe(true);
  });

  it("take paths from approvalPaths, else from the input's path", () => {
    expect(toolApprovalPaths(tool(false), { path: "a" })).toEqual(["a"]);
    expect(toolApprovalPaths(tool(false), { path: 3 })).toEqual([]);
    expect(toolApprovalPaths(tool(false), undefined)).toEqual([]);
    const custom = {
      ...tool(false),
      approvalPaths: (input: { from: string; to: string }) => [input.from, input.to],
    };
    expect(toolApprovalPaths(custom, { from: "a", to: "b" })).toEqual(["a", "b"]);
  });
});

import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApprovalSettings,
  DEFAULT_APPROVAL_SETTINGS,
} from "../../../src/agent/pipeline/approval-policy.js";
import { withCategory } from "../../../src/agent/pipeline/tool-category.js";
import type { ToolHandler } from "../../../src/agent/tool.js";
import {
  createSettingsApprovalPolicy,
  decideToolApproval,
} from "../../../src/coding/approvals/settings-policy.js";
import { createCodingTools } from "../../../src/coding/tools/index.js";
import { createTempWorkspace, type TempWorkspace } from "../temp-workspace.js";

describe("the settings approval policy on the real coding tools", () => {
  let temp: TempWorkspace;
  let outsideDir: string;
  let tools: Map<string, ToolHandler>;
  beforeAll(async () => {
    temp = await createTempWorkspace({ "src/a.ts": "a\n" });
    outsideDir = await fs.mkdtemp(path.join(os.tmpdir(), "bowline-outside-"));
    await fs.symlink(outsideDir, path.join(temp.root, "escape"));
    tools = new Map(createCodingTools({ workspace: temp.workspace }).map((tool) => [tool.name, tool]));
  });
  afterAll(async () => {
    await temp.remove();
    await fs.rm(outsideDir, { recursive: true, force: true });
  });

  const decide = (overrides: Partial<ApprovalSettings>, name: string, input: unknown) =>
    decideToolApproval(
      { settings: { ...DEFAULT_APPROVAL_SETTINGS, ...overrides }, workspace: temp.workspace },
      tools.get(name)!,
      input,
    ).decision;

  it("reads inside run, outside (including through a symlink) ask", () => {
    expect(decide({}, "read_file", { path: "src/a.ts" })).toBe("allow");
    expect(decide({}, "list_files", { path: "." })).toBe("allow");
    expect(decide({}, "search_files", { path: "src", regex: "a" })).toBe("allow");
    expect(decide({}, "read_file", { path: path.join(outsideDir, "x") })).toBe("ask");
    expect(decide({}, "read_file", { path: "escape/x" })).toBe("ask");
    expect(decide({}, "read_file", { path: "../x" })).toBe("ask");
    expect(decide({ readOutsideWorkspace: true }, "read_file", { path: "escape/x" })).toBe("allow");
  });

  it("edits follow the edit settings and always ask for .bowline and .git", () => {
    expect(decide({}, "write_to_file", { path: "src/b.ts", content: "" })).toBe("ask");
    const edits = { editInsideWorkspace: true };
    expect(decide(edits, "write_to_file", { path: "src/b.ts", content: "" })).toBe("allow");
    expect(decide(edits, "replace_in_file", { path: "src/a.ts", diff: "" })).toBe("allow");
    expect(decide(edits, "write_to_file", { path: "escape/b.ts", content: "" })).toBe("ask");
    expect(decide(edits, "write_to_file", { path: ".bowline/hooks/PreToolUse", content: "" })).toBe("ask");
    expect(decide(edits, "write_to_file", { path: ".git/config", content: "" })).toBe("ask");
    expect(decide(edits, "write_to_file", { path: "src/.bowline", content: "" })).toBe("allow");
  });

  it("protects extra directories outside the workspace", () => {
    const verdict = decideToolApproval(
      {
        settings: { ...DEFAULT_APPROVAL_SETTINGS, editInsideWorkspace: true, editOutsideWorkspace: true },
        workspace: temp.workspace,
        protectedDirs: [outsideDir],
      },
      tools.get("write_to_file")!,
      { path: path.join(outsideDir, "hooks", "x"), content: "" },
    );
    expect(verdict.decision).toBe("ask");
  });

  it("commands: requires_approval is advice, the read-only check decides", () => {
    const exec = withCategory(tools.get("execute_command")!, "command");
    const run = (overrides: Partial<ApprovalSettings>, input: unknown) =>
      decideToolApproval(
        { settings: { ...DEFAULT_APPROVAL_SETTINGS, ...overrides }, workspace: temp.workspace },
        exec,
        input,
      );
    const safe = { safeCommands: true };
    expect(run(safe, { command: "ls -la", requires_approval: false }).decision).toBe("allow");
    expect(run(safe, { command: "rm -rf x", requires_approval: false })).toEqual({
      decision: "ask",
      reason: "not a read-only command: rm is not in the read-only command list",
    });
    expect(run(safe, { command: "cat a > b", requires_approval: false }).decision).toBe("ask");
    expect(run(safe, { command: "ls", requires_approval: true }).decision).toBe("ask");
    expect(run({}, { command: "ls -la", requires_approval: false }).decision).toBe("ask");
    expect(run({ safeCommands: true, allCommands: true }, { command: "rm -rf x" }).decision).toBe("allow");
  });

  it("execute_command is a command: safeCommands allows only read-only ones", () => {
    expect(tools.get("execute_command")!.category).toBe("command");
    expect(decide({ safeCommands: true }, "execute_command", { command: "ls" })).toBe("allow");
    expect(decide({ safeCommands: true }, "execute_command", { command: "rm -rf x" })).toBe("ask");
    expect(decide({}, "execute_command", { command: "ls" })).toBe("ask");
  });

  it("works as the executor's ApprovalPolicy", () => {
    const policy = createSettingsApprovalPolicy({
      settings: DEFAULT_APPROVAL_SETTINGS,
      workspace: temp.workspace,
    });
    expect(policy(tools.get("read_file")!, { path: "src/a.ts" })).toEqual({ type: "allow" });
    expect(policy(tools.get("write_to_file")!, { path: "src/a.ts", content: "" })).toEqual({ type: "ask" });
    expect(policy(tools.get("attempt_completion")!, { result: "done" })).toEqual({ type: "allow" });
    expect(policy(tools.get("ask_followup_question")!, { question: "?" })).toEqual({ type: "allow" });
  });

  it("treats a throwing approvalPaths as a path outside", () => {
    const broken = {
      ...tools.get("read_file")!,
      approvalPaths: () => {
        throw new Error("bug");
      },
    };
    const verdict = decideToolApproval(
      { settings: DEFAULT_APPROVAL_SETTINGS, workspace: temp.workspace },
      broken,
      {},
    );
    expect(verdict.decision).toBe("ask");
  });
});

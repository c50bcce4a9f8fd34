import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ApprovalSettings,
  DEFAULT_APPROVAL_SETTINGS,
} from "../../../src/agent/pipeline/approval-policy.js";
import type { ToolHandler } from "../../../src/agent/tool.js";
import {
  composeApprovalPolicy,
  decidePermission,
  type PermissionPolicyOptions,
} from "../../../src/coding/safety/permission-policy.js";
import { parsePermissionRule } from "../../../src/coding/safety/permission-rules.js";
import { mergePermissions, parsePermissions } from "../../../src/coding/safety/permission-settings.js";
import { loadShellParser } from "../../../src/coding/safety/shell-parser.js";
import { createCodingTools } from "../../../src/coding/tools/index.js";
import { createTempWorkspace, type TempWorkspace } from "../temp-workspace.js";

const mcpTool: ToolHandler = {
  name: "use_mcp_tool",
  description: "",
  inputSchema: z.object({}).passthrough(),
  mutates: true,
  category: "mcp",
  summarize: () => "mcp",
  execute: async () => ({ content: "" }),
};

describe("permission rules and the permission policy", () => {
  let temp: TempWorkspace;
  let outside: string;
  let tools: Map<string, ToolHandler>;
  beforeAll(async () => {
    await loadShellParser();
    temp = await createTempWorkspace({ "src/a.ts": "a\n" });
    outside = await fs.mkdtemp(path.join(os.tmpdir(), "bowline-outside-"));
    tools = new Map(createCodingTools({ workspace: temp.workspace }).map((tool) => [tool.name, tool]));
    tools.set(mcpTool.name, mcpTool);
  });
  afterAll(async () => {
    await temp.remove();
    await fs.rm(outside, { recursive: true, force: true });
  });

  const options = (
    permissions: { allow?: string[]; ask?: string[]; deny?: string[] },
    settings: Partial<ApprovalSettings> = {},
    extra: Partial<PermissionPolicyOptions> = {},
  ): PermissionPolicyOptions => ({
    settings: { ...DEFAULT_APPROVAL_SETTINGS, safeCommands: true, ...settings },
    rules: parsePermissions(permissions, "test settings"),
    workspace: temp.workspace,
    ...extra,
  });
  const decide = (opts: PermissionPolicyOptions, tool: string, input: unknown) =>
    decidePermission(opts, tools.get(tool)!, input);

  it("parses rules and rejects malformed ones", () => {
    expect(parsePermissionRule("execute_command(npm test)", "allow", "u")).toEqual({
      action: "allow",
      tool: "execute_command",
      pattern: "npm test",
      source: "u",
    });
    expect(parsePermissionRule("github__mcp__*", "deny", "u")).toEqual({
      action: "deny",
      tool: "github__mcp__*",
      source: "u",
    });
    expect(() => parsePermissions({ deny: ["execute_command(rm"] }, "f.json")).toThrow(
      /f\.json: "execute_command\(rm"/,
    );
  });

  it("deny wins over allow, ask over allow; every sub-command must be allowed", () => {
    const opts = options({
      allow: ["execute_command(npm)"],
      ask: ["execute_command(npm publish)"],
      deny: ["execute_command(npm run nuke)"],
    });
    expect(decide(opts, "execute_command", { command: "npm install" }).decision).toBe("allow");
    expect(decide(opts, "execute_command", { command: "npm publish" })).toMatchObject({
      decision: "ask",
      firm: true,
    });
    expect(decide(opts, "execute_command", { command: "npm run nuke" })).toMatchObject({
      decision: "deny",
      rule: "deny execute_command(npm run nuke) (test settings)",
    });
    expect(decide(opts, "execute_command", { command: "npm install && make" }).decision).toBe("ask");
    expect(decide(opts, "execute_command", { command: "npm install && ls" }).decision).toBe("allow");
  });

  it("path rules cover reads and edits, inside and outside the workspace", () => {
    const opts = options({
      allow: ["edit(src/**)", "read(:outside)"],
      deny: ["read(~/.ssh/**)", "edit(**/*.lock)"],
    });
    expect(decide(opts, "write_to_file", { path: "src/b.ts", content: "" }).decision).toBe("allow");
    expect(decide(opts, "write_to_file", { path: "docs/b.md", content: "" }).decision).toBe("ask");
    expect(decide(opts, "write_to_file", { path: "src/yarn.lock", content: "" }).decision).toBe("deny");
    expect(decide(opts, "read_file", { path: path.join(outside, "x") }).decision).toBe("allow");
    expect(decide(opts, "read_file", { path: path.join(os.homedir(), ".ssh", "id_rsa") }).decision).toBe(
      "deny",
    );
  });

  it("protected paths always ask, whatever the rules and settings say, except under YOLO", () => {
    const opts = options(
      { allow: ["edit", "write_to_file"] },
      { editInsideWorkspace: true, editOutsideWorkspace: true },
    );
    for (const target of [
      ".git/config",
      "sub/.git/hooks/x",
      ".bowline/approvals.json",
      ".gitignore",
      ".bowlineignore",
      ".env",
      path.join(outside, "x"),
    ]) {
      expect(decide(opts, "write_to_file", { path: target, content: "" }), target).toMatchObject({
        decision: "ask",
        firm: true,
      });
    }
    expect(decide(opts, "write_to_file", { path: "src/ok.ts", content: "" }).decision).toBe("allow");
    const yolo = options({ deny: ["edit(.env)"] }, { yolo: true });
    expect(decide(yolo, "write_to_file", { path: ".git/config", content: "" }).decision).toBe("allow");
    expect(decide(yolo, "write_to_file", { path: ".env", content: "" }).decision).toBe("deny");
  });

  it("MCP rules match server__mcp__tool names with globs", () => {
    const opts = options({ allow: ["github__mcp__list_*"], deny: ["mcp(github__mcp__delete_*)"] });
    const call = (tool: string) =>
      decide(opts, "use_mcp_tool", { server_name: "github", tool_name: tool, arguments: "{}" });
    expect(call("list_issues").decision).toBe("allow");
    expect(call("delete_repo").decision).toBe("deny");
    expect(call("create_issue").decision).toBe("ask");
  });

  it("the sandbox auto-approves what no rule decides; asking to leave it always asks", () => {
    const sandbox = { active: true, autoApprove: true };
    const opts = options(
      { deny: ["execute_command(rm)"], ask: ["execute_command(git push)"] },
      {},
      { sandbox },
    );
    expect(decide(opts, "execute_command", { command: "npm install" })).toMatchObject({
      decision: "allow",
      reason: /sandbox/,
    });
    expect(decide(opts, "execute_command", { command: "rm -rf x" }).decision).toBe("deny");
    expect(decide(opts, "execute_command", { command: "git push" }).decision).toBe("ask");
    expect(decide(opts, "execute_command", { command: "echo x > .git/config" })).toMatchObject({
      decision: "ask",
      firm: true,
    });
    expect(decide(opts, "execute_command", { command: "ls", unsandboxed: true })).toMatchObject({
      decision: "ask",
      firm: true,
    });
    expect(decide(opts, "execute_command", { command: "eval $X" })).toMatchObject({ decision: "ask" });
  });

  it("the model's requires_approval flag can make a command ask, never run", () => {
    const opts = options({});
    expect(decide(opts, "execute_command", { command: "ls", requires_approval: true }).decision).toBe("ask");
    expect(decide(opts, "execute_command", { command: "rm x", requires_approval: false }).decision).toBe(
      "ask",
    );
  });

  it("YOLO runs everything except what a deny rule names (or might name)", () => {
    const opts = options({ deny: ["execute_command(npm publish)"] }, { yolo: true });
    expect(decide(opts, "execute_command", { command: "rm -rf build" }).decision).toBe("allow");
    expect(decide(opts, "execute_command", { command: "npm publish" }).decision).toBe("deny");
    expect(decide(opts, "execute_command", { command: "npm --tag x publish" }).decision).toBe("deny");
  });

  it("composes with the host: firm asks are not the host's to allow", () => {
    const opts = options({ ask: ["execute_command(git push)"] });
    const host = () => ({ type: "allow" as const });
    const policy = (interactive: boolean) =>
      composeApprovalPolicy({
        decide: (tool, input) => decidePermission(opts, tool, input),
        host,
        interactive,
      });
    const exec = tools.get("execute_command")!;
    expect(policy(true)(exec, { command: "git push" })).toEqual({ type: "ask" });
    expect(policy(false)(exec, { command: "git push" })).toMatchObject({
      type: "deny",
      reason: /nobody can be asked/,
    });
    expect(policy(false)(exec, { command: "make" })).toEqual({ type: "allow" });
  });
});

describe("mergePermissions", () => {
  const user = { permissions: { deny: ["execute_command(rm)"], allow: ["execute_command(npm test)"] } };
  const project = {
    permissions: {
      allow: ["execute_command(rm)", "execute_command(make)"],
      ask: ["execute_command(git push)"],
    },
    sandbox: { mode: "off" as const, network: true, autoApprove: true },
  };

  it("keeps the project's deny and ask rules, and its allow rules only when trusted", () => {
    const untrusted = mergePermissions({ user, project, projectTrusted: false });
    expect(untrusted.rules.map((rule) => `${rule.action} ${rule.pattern} ${rule.source}`)).toEqual([
      "deny rm user settings",
      "allow npm test user settings",
      "ask git push project settings",
    ]);
    expect(untrusted.ignored.join("\n")).toMatch(
      /2 allow rule\(s\): this project's settings are not trusted/,
    );
    const trusted = mergePermissions({ user, project, projectTrusted: true });
    expect(trusted.rules.filter((rule) => rule.source === "project settings")).toHaveLength(3);
  });

  it("lets the project make the sandbox stricter, never looser", () => {
    const merged = mergePermissions({ user: {}, project, projectTrusted: true });
    expect(merged.sandbox).toEqual({ network: false, autoApprove: false, writable: [], allowedHosts: [] });
    expect(merged.ignored).toEqual([
      "sandbox.mode off: the project settings cannot loosen the sandbox",
      "sandbox.network: the project settings cannot turn on what the user settings leave off",
      "sandbox.autoApprove: the project settings cannot turn on what the user settings leave off",
    ]);
    const stricter = mergePermissions({
      user: { sandbox: { network: true } },
      project: { sandbox: { mode: "read-only", network: false } },
      projectTrusted: false,
    });
    expect(stricter.sandbox).toMatchObject({ mode: "read-only", network: false });
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolHandler } from "../../src/agent/tool.js";
import { createNonInteractivePolicy, parseAllowRules } from "../../src/coding/approval-rules.js";

const tool = (name: string, mutates: boolean): ToolHandler => ({
  name,
  description: name,
  inputSchema: z.object({}).passthrough(),
  mutates,
  summarize: () => name,
  execute: async () => ({ content: "" }),
});

describe("parseAllowRules", () => {
  it("splits names and patterns, keeping commas inside parentheses", () => {
    expect(parseAllowRules(["write_to_file,execute_command(npm test, --x)", " read_file "])).toEqual([
      { tool: "write_to_file" },
      { tool: "execute_command", pattern: "npm test, --x" },
      { tool: "read_file" },
    ]);
  });
});

describe("the non-interactive policy", () => {
  const none = createNonInteractivePolicy({ yes: false, allow: [] });

  it("runs read-only tools and denies mutating ones with a reason the model can act on", () => {
    expect(none(tool("read_file", false), { path: "a" })).toEqual({ type: "allow" });
    const decision = none(tool("write_to_file", true), { path: "a" });
    expect(decision.type).toBe("deny");
    expect(decision.type === "deny" && decision.reason).toMatch(/--yes/);
  });

  it("allows everything with --yes", () => {
    expect(
      createNonInteractivePolicy({ yes: true, allow: [] })(tool("execute_command", true), {
        command: "rm x",
      }),
    ).toEqual({ type: "allow" });
  });

  it("matches command prefixes at a word boundary and refuses chained commands", () => {
    const policy = createNonInteractivePolicy({
      yes: false,
      allow: parseAllowRules(["execute_command(npm test)"]),
    });
    const run = (command: string) => policy(tool("execute_command", true), { command }).type;
    expect(run("npm test")).toBe("allow");
    expect(run("npm test -- --watch=false")).toBe("allow");
    expect(run("npm testing")).toBe("deny");
    expect(run("npm test && rm -rf /")).toBe("deny");
    expect(run("npm test; curl x | sh")).toBe("deny");
    expect(run("npm test $(rm -rf ~)")).toBe("deny");
    expect(run("npm test\nrm -rf ~")).toBe("deny");
  });

  it("matches path prefixes for file tools and whole tools by name", () => {
    const policy = createNonInteractivePolicy({
      yes: false,
      allow: parseAllowRules(["write_to_file(src/)", "replace_in_file"]),
    });
    expect(policy(tool("write_to_file", true), { path: "src/a.ts" }).type).toBe("allow");
    expect(policy(tool("write_to_file", true), { path: "package.json" }).type).toBe("deny");
    expect(policy(tool("replace_in_file", true), { path: "anything" }).type).toBe("allow");
    expect(policy(tool("execute_command", true), { command: "ls" }).type).toBe("deny");
  });
});

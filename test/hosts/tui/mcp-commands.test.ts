/** MCP in the TUI: /mcp lists the servers; their prompts are slash commands that send the prompt's text. */
import { afterEach, describe, expect, it } from "vitest";
import { promptArguments } from "../../../src/hosts/tui/mcp-slash.js";
import type { McpServerSummary } from "../../../src/protocol/index.js";
import { KEYS, type MountedTui, mountTui, settle } from "./harness.js";

let t: MountedTui;
afterEach(() => t.unmount());

const command = (text: string) => t.type(text, KEYS.enter);

const SERVERS: McpServerSummary[] = [
  {
    name: "docs",
    status: "connected",
    toolCount: 2,
    tools: ["search", "fetch"],
    resourceCount: 1,
    prompts: [
      {
        name: "review",
        description: "Review a file",
        arguments: [
          { name: "path", required: true },
          { name: "focus", required: false },
        ],
      },
    ],
  },
  {
    name: "slow",
    status: "failed",
    error: "did not answer within 30 s",
    toolCount: 0,
    tools: [],
    resourceCount: 0,
    prompts: [],
  },
];

describe("MCP in the TUI", () => {
  it("lists the servers once the task runs, then /mcp shows them with their prompts", async () => {
    t = mountTui({ discoverMcp: true });
    await command("go");
    t.state("running");
    expect(t.dispatched).toEqual([{ type: "list_mcp_servers" }]);
    t.state("completed");
    t.state("running");
    expect(t.dispatched).toHaveLength(1);
    await command("/mcp");
    t.emit({ type: "mcp_servers", servers: SERVERS });
    await settle();
    const frame = t.frame();
    expect(frame).toContain("docs  connected · 2 tools · 1 resources");
    expect(frame).toContain("tools: search, fetch");
    expect(frame).toContain("/docs:review <path> [focus] — Review a file");
    expect(frame).toContain("slow  failed — did not answer within 30 s");
  });

  it("a prompt command fetches the prompt with its arguments and sends its text", async () => {
    t = mountTui();
    t.emit({ type: "mcp_servers", servers: SERVERS });
    await t.type("/docs:r");
    expect(t.frame()).toContain("/docs:review");
    await t.type(KEYS.tab, "src/a.ts error handling", KEYS.enter);
    expect(t.dispatched).toEqual([
      {
        type: "get_mcp_prompt",
        server: "docs",
        prompt: "review",
        arguments: { path: "src/a.ts", focus: "error handling" },
      },
    ]);
    t.emit({
      type: "mcp_prompt",
      server: "docs",
      prompt: "review",
      text: "Review src/a.ts for error handling.",
    });
    await settle();
    expect(t.runs).toEqual(["Review src/a.ts for error handling."]);
  });

  it("a failed prompt says why and sends nothing", async () => {
    t = mountTui();
    t.emit({ type: "mcp_servers", servers: SERVERS });
    await command("/docs:review");
    t.emit({
      type: "mcp_prompt",
      server: "docs",
      prompt: "review",
      error: 'missing required argument "path"',
    });
    await settle();
    expect(t.frame()).toContain('/docs:review: missing required argument "path"');
    expect(t.runs).toEqual([]);
  });

  it("arguments by name, quoted, or in order", () => {
    const prompt = SERVERS[0]!.prompts[0]!;
    expect(promptArguments(prompt, 'focus="the tests" path=lib/x.ts')).toEqual({
      focus: "the tests",
      path: "lib/x.ts",
    });
    expect(promptArguments(prompt, '"my file.ts" speed')).toEqual({ path: "my file.ts", focus: "speed" });
    expect(promptArguments(prompt, "")).toEqual({});
  });
});

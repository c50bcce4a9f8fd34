/** Slash commands: protocol commands, messages, local output, workflows, and ones not ready yet. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { INIT_PROMPT } from "../../../src/hosts/tui/slash-commands.js";
import { KEYS, type MountedTui, mountTui, settle } from "./harness.js";

let t: MountedTui;
afterEach(() => t.unmount());

const command = (text: string) => t.type(text, KEYS.enter);

describe("slash commands", () => {
  it("/help lists the commands, the workflows and the keys", async () => {
    t = mountTui();
    mkdirSync(join(t.cwd, ".bowline", "workflows"), { recursive: true });
    writeFileSync(
      join(t.cwd, ".bowline", "workflows", "release.md"),
      "# Cut a release\n\n1. Bump the version\n",
    );
    await command("/help");
    const frame = t.frame();
    for (const name of [
      "/help",
      "/model",
      "/mode [plan|act]",
      "/compact [focus]",
      "/cost",
      "/context",
      "/clear",
      "/init",
    ])
      expect(frame).toContain(name);
    expect(frame).toContain("/undo — undo the last step's file changes");
    expect(frame).toContain("/rewind [n] [files|task|both]");
    expect(frame).toContain("/mcp — MCP servers: status, tools and prompts");
    expect(frame).not.toContain("not available");
    expect(frame).toContain("/release — workflow: Cut a release");
    expect(frame).toContain("Esc stop the agent");
    expect(t.dispatched).toEqual([]);
  });

  it("an unknown command says so, and sends nothing", async () => {
    t = mountTui();
    await command("/frobnicate now");
    expect(t.frame()).toContain("Unknown command /frobnicate. /help lists them.");
    expect(t.dispatched).toEqual([]);
    expect(t.runs).toEqual([]);
  });

  it("/compact and /init are messages: the first starts the task, later ones are sent", async () => {
    t = mountTui();
    await command("/init");
    expect(t.runs).toEqual([INIT_PROMPT]);
    t.state("completed");
    await command("/compact keep the API decisions");
    expect(t.dispatched).toEqual([{ type: "send_message", text: "/compact keep the API decisions" }]);
  });

  it("/mode switches through the protocol; /model and /cost report", async () => {
    t = mountTui({ contextWindow: 100_000 });
    await command("/mode plan");
    expect(t.dispatched).toEqual([{ type: "set_mode", mode: "plan" }]);
    const usage = {
      inputTokens: 1000,
      outputTokens: 500,
      cacheReadTokens: 9000,
      cacheWriteTokens: 0,
      costUsd: 0.05,
    };
    t.say({ say: "api_request", index: 1, usage });
    t.state("completed", { usage, model: "gpt-test" });
    await command("/model");
    expect(t.frame()).toContain("Model: gpt-test.");
    await command("/cost");
    expect(t.frame()).toContain("Spent: 10k tokens in (90% from cache) · 500 out · $0.0500 · 1 requests");
  });

  it("a workflow sends its steps and what was added after its name", async () => {
    t = mountTui();
    mkdirSync(join(t.cwd, ".bowline", "workflows"), { recursive: true });
    writeFileSync(join(t.cwd, ".bowline", "workflows", "release.md"), "1. Bump the version\n2. Tag it\n");
    await command("/release for 2.1.0");
    expect(t.runs).toHaveLength(1);
    expect(t.runs[0]).toContain('Follow the workflow "release"');
    expect(t.runs[0]).toContain("2. Tag it");
    expect(t.runs[0]).toMatch(/for 2\.1\.0$/);
  });

  it("completes command names from / with Tab", async () => {
    t = mountTui();
    await t.type("/co");
    expect(t.frame()).toContain("› /compact");
    expect(t.frame()).toContain("/context");
    expect(t.frame()).toContain("/cost");
    await t.type(KEYS.down, KEYS.tab);
    expect(t.tui.input.get().draft.text).toBe("/context ");
  });

  it("/clear and /new leave for a new task, Ctrl-L clears the screen, /exit leaves", async () => {
    const opened: Array<string | undefined> = [];
    t = mountTui({ openTask: (id) => opened.push(id) });
    await command("/clear");
    await command("/new");
    expect(opened).toEqual([undefined, undefined]);
    expect(t.clears()).toBe(0);
    await t.type(KEYS.ctrlL);
    expect(t.clears()).toBe(1);
    await command("/exit");
    expect(t.exits()).toBe(1);
  });

  it("/clear in a host that cannot switch tasks says so", async () => {
    t = mountTui();
    await command("/clear");
    expect(t.frame()).toContain("This host cannot start a new task.");
  });

  it("a command added by the host replaces the built-in of that name", async () => {
    t = mountTui({
      commands: [
        { name: "undo", description: "restore the last checkpoint", run: (_, ctx) => ctx.print("restored") },
      ],
    });
    await command("/undo");
    await settle();
    expect(t.frame()).toContain("· restored");
  });
});

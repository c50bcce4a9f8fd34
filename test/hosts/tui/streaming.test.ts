/** Streaming: text grows in the live part, finished messages go to the scrollback once. */
import { afterEach, describe, expect, it } from "vitest";
import { type MountedTui, mountTui, settle } from "./harness.js";

let t: MountedTui;
afterEach(() => t.unmount());

const tool = (status: "pending" | "running" | "done", output?: string) => ({
  say: "tool" as const,
  tool: "execute_command",
  callId: "c1",
  summary: "execute_command npm test",
  input: { command: "npm test" },
  status,
  output,
  details: status === "done" ? { exitCode: 1 } : undefined,
});

describe("streaming", () => {
  it("shows text as it streams, renders markdown, and commits it when the next step starts", async () => {
    t = mountTui();
    t.state("running");
    t.say({ say: "task", text: "Fix the tests" });
    const text = t.say({ say: "text", text: "Looking at **the" }, { partial: true });
    await settle();
    expect(t.frame()).toContain("❯ Fix the tests");
    expect(t.frame()).toContain("Looking at **the");
    const grown = t.update(
      text,
      { say: "text", text: "Looking at **the tests**:\n```js\nconst a = 1;\n```" },
      { partial: true },
    );
    await settle();
    expect(t.frame()).toContain("Looking at the tests:");
    expect(t.frame()).toContain("│ const a = 1;");
    t.update(grown, {
      say: "text",
      text: "Looking at **the tests**:\n```js\nconst a = 1;\n```\nDone looking.",
    });
    await settle();
    // Final, but a failed reply could still be discarded: it stays live until the next step starts.
    expect(t.tui.store.get().live.map((m) => m.id)).toEqual([text.id]);
    const running = t.say(tool("pending"));
    await settle();
    // Task and text were written to the scrollback; only the tool is live.
    expect(t.tui.store.get().committed).toHaveLength(2);
    expect(t.tui.store.get().live.map((m) => m.id)).toEqual([running.id]);
    t.update(running, tool("running", "FAIL src/a.test.js\n  expected 2"));
    await settle();
    expect(t.frame()).toContain("▸ execute_command npm test");
    expect(t.frame()).toContain("expected 2");
    t.update(running, tool("done", "FAIL"));
    t.state("completed");
    await settle();
    expect(t.frame()).toContain("✓ execute_command npm test (exit 1)");
    expect(t.tui.store.get().live).toEqual([]);
    expect(t.frame()).toContain("done · type to go on");
  });

  it("hides a reply that was discarded for a retry, even when it had finished streaming", async () => {
    t = mountTui();
    t.state("running");
    const failed = t.say({ say: "text", text: "Half an answ" }, { partial: true });
    t.update(failed, { say: "text", text: "Half an answer" });
    t.update(failed, { say: "text", text: "Half an answer" }, { discarded: true });
    t.say({
      say: "api_retry",
      attempt: 1,
      attempts: 4,
      message: "Overloaded",
      delayMs: 2000,
      secondsLeft: 2,
    });
    await settle();
    expect(t.frame()).not.toContain("Half an answer");
    expect(t.frame()).toContain("↻ Overloaded — retry 1 of 4 in 2s");
  });

  it("keeps the live part shorter than the terminal: a long streaming text shows its last lines", async () => {
    t = mountTui();
    t.state("running");
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n");
    t.say({ say: "text", text: lines }, { partial: true });
    await settle();
    const frame = t.frame();
    expect(frame).toContain("line 200");
    expect(frame).not.toContain("line 100\n");
    expect(frame).toMatch(/… \d+ more lines above/);
    expect(frame.split("\n").length).toBeLessThan(24);
  });

  it("writes each finished message once and lets its content go", async () => {
    t = mountTui();
    t.state("running");
    for (let i = 0; i < 50; i++) {
      t.say({ say: "text", text: `answer ${i}` });
      t.say({ say: "notice", text: `step ${i}` });
    }
    t.state("completed");
    await settle();
    const committed = t.tui.store.get().committed;
    expect(committed).toHaveLength(100);
    expect(committed.every((item) => item.kind === "released")).toBe(true);
    expect(t.frame()).toContain("answer 49");
    expect(t.frame().match(/answer 7\n/g)).toHaveLength(1);
  });

  it("counts usage from the requests into the status line", async () => {
    t = mountTui({ contextWindow: 200_000 });
    const usage = {
      inputTokens: 2000,
      outputTokens: 300,
      cacheReadTokens: 18_000,
      cacheWriteTokens: 0,
      costUsd: 0.0123,
    };
    t.say({ say: "api_request", index: 1, usage });
    t.state("running", { usage, model: "claude-test" });
    await settle();
    expect(t.frame()).toMatch(/ACT .*ctx 20k\/200k · claude-test · \$0\.0123 · cache 90%/);
  });

  it("names the model in the status line before the task has said anything", async () => {
    t = mountTui({ contextWindow: 200_000, model: "claude-test" });
    await settle();
    expect(t.frame()).toMatch(/ACT .*ctx 0\/200k · claude-test/);
  });
});

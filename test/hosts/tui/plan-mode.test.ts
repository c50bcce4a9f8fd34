/** Plan / act: Tab switches, the plan's options are picked by number, questions are answered. */
import { afterEach, describe, expect, it } from "vitest";
import { KEYS, type MountedTui, mountTui, settle } from "./harness.js";

let t: MountedTui;
afterEach(() => t.unmount());

describe("plan mode", () => {
  it("Tab asks the core to switch; the status line follows the state it reports", async () => {
    t = mountTui();
    await t.type(KEYS.tab);
    expect(t.dispatched).toEqual([{ type: "set_mode", mode: "plan" }]);
    expect(t.frame()).toContain(" ACT ");
    t.state("idle", { mode: "plan" });
    await settle();
    expect(t.frame()).toContain(" PLAN ");
    await t.type(KEYS.tab);
    expect(t.dispatched[1]).toEqual({ type: "set_mode", mode: "act" });
  });

  it("shows the plan with its options, and a number picks one as the next message", async () => {
    t = mountTui({ prompt: "Add caching" });
    expect(t.runs).toEqual(["Add caching"]);
    t.state("running", { mode: "plan" });
    t.say({ say: "task", text: "Add caching" });
    const options = ["Cache in memory", "Cache on disk"];
    const plan = "1. Add a cache module\n2. Use it in the fetcher";
    t.say({
      say: "tool",
      tool: "plan_mode_respond",
      callId: "p1",
      summary: "plan_mode_respond",
      input: { response: plan, options },
      status: "done",
      details: { options },
    });
    t.say({ say: "completion_result", text: `${plan}\n\nOptions:\n1. ${options[0]}\n2. ${options[1]}` });
    t.state("completed", { mode: "plan" });
    await settle();
    const frame = t.frame();
    expect(frame).toContain("1. Add a cache module");
    expect(frame).toContain("2. Cache on disk");
    expect(frame).not.toContain("✓ plan_mode_respond");
    expect(frame).toContain(" PLAN ");
    expect(frame).toContain("Press 1-2 to pick an option");
    await t.type("2");
    expect(t.dispatched).toEqual([{ type: "send_message", text: "Cache on disk" }]);
  });

  it("answers a follow-up question with an option's number or typed text", async () => {
    t = mountTui({ prompt: "Set up CI" });
    t.state("running");
    const ask = t.ask({ ask: "followup", question: "Which CI?", options: ["GitHub Actions", "GitLab CI"] });
    await settle();
    expect(t.frame()).toContain("? Which CI?");
    expect(t.frame()).toContain("1. GitHub Actions");
    await t.type("1");
    expect(t.dispatched).toEqual([
      { type: "answer", askId: ask.id, response: "message", text: "GitHub Actions" },
    ]);
    t.state("running");
    const second = t.ask({ ask: "followup", question: "Which Node version?" });
    await settle();
    await t.type("22 and 20", KEYS.enter);
    expect(t.dispatched[1]).toEqual({
      type: "answer",
      askId: second.id,
      response: "message",
      text: "22 and 20",
    });
  });

  it("answers a budget question with y or n", async () => {
    t = mountTui({ prompt: "Refactor" });
    const ask = t.ask({ ask: "limit_reached", message: "The task reached its budget of $1.00." });
    await settle();
    expect(t.frame()).toContain("[y] go on with another budget");
    await t.type("y");
    expect(t.dispatched).toEqual([{ type: "answer", askId: ask.id, response: "approve" }]);
  });
});

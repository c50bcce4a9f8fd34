/** Interrupts and queued messages: Esc stops, a message typed meanwhile waits its turn, Ctrl-C twice leaves. */
import { afterEach, describe, expect, it } from "vitest";
import { KEYS, type MountedTui, mountTui, settle } from "./harness.js";

let t: MountedTui;
afterEach(() => t.unmount());

describe("interrupts", () => {
  it("Esc stops the running step and leaves the input ready for what to do next", async () => {
    t = mountTui({ prompt: "Run the tests" });
    t.state("running");
    const streaming = t.say({ say: "text", text: "Running them now" }, { partial: true });
    await settle();
    expect(t.frame()).toContain("working · Esc to stop");
    await t.type(KEYS.escape);
    expect(t.dispatched).toEqual([{ type: "abort" }]);
    // The core ends the stopped stream, then the task: the note comes after what was stopped.
    t.update(streaming, { say: "text", text: "Running them now, and" });
    t.state("aborted");
    await settle();
    const frame = t.frame();
    expect(frame).toContain("! Stopped. Say what to do next.");
    expect(frame.indexOf("Running them now, and")).toBeLessThan(frame.indexOf("! Stopped."));
    expect(frame).toContain("stopped · type to go on");
    await t.type("only run the unit tests", KEYS.enter);
    expect(t.dispatched[1]).toEqual({ type: "send_message", text: "only run the unit tests" });
  });

  it("Esc during an approval stops the step too (the core denies the open ask)", async () => {
    t = mountTui({ prompt: "Clean up" });
    t.state("running");
    t.ask({
      ask: "tool_approval",
      tool: "execute_command",
      callId: "c",
      summary: "rm -rf dist",
      input: { command: "rm -rf dist" },
    });
    await settle();
    await t.type(KEYS.escape);
    expect(t.dispatched).toEqual([{ type: "abort" }]);
  });

  it("Esc when nothing runs does nothing", async () => {
    t = mountTui();
    await t.type(KEYS.escape);
    expect(t.dispatched).toEqual([]);
  });

  it("Ctrl-C once stops the agent and warns; twice leaves", async () => {
    t = mountTui({ prompt: "Long task" });
    t.state("running");
    await t.type(KEYS.ctrlC);
    expect(t.dispatched).toEqual([{ type: "abort" }]);
    expect(t.frame()).toContain("Press Ctrl-C again to exit");
    expect(t.exits()).toBe(0);
    await t.type(KEYS.ctrlC);
    expect(t.exits()).toBe(1);
  });

  it("Ctrl-C with text in the box clears the text first", async () => {
    t = mountTui();
    await t.type("half a thought");
    await t.type(KEYS.ctrlC);
    expect(t.tui.input.get().draft.text).toBe("");
    expect(t.dispatched).toEqual([]);
  });
});

describe("queued messages", () => {
  it("a message typed while the agent works goes to the core at once and shows as queued until delivered", async () => {
    t = mountTui({ prompt: "Fix the bug" });
    t.state("running");
    await t.type("also update the changelog", KEYS.enter);
    await t.type("and the docs", KEYS.enter);
    expect(t.dispatched).toEqual([
      { type: "send_message", text: "also update the changelog" },
      { type: "send_message", text: "and the docs" },
    ]);
    expect(t.frame()).toContain("⏸ queued: also update the changelog");
    expect(t.frame()).toContain("2 queued");
    // The core says each when it reaches the model (with the results of the running tool).
    t.say({ say: "user_message", text: "also update the changelog" });
    await settle();
    expect(t.frame()).not.toContain("⏸ queued: also update the changelog");
    expect(t.frame()).toContain("⏸ queued: and the docs");
    t.say({ say: "user_message", text: "and the docs" });
    await settle();
    expect(t.frame()).not.toContain("⏸ queued");
  });

  it("a message typed while an approval is open waits in the core; the approval keys still work", async () => {
    t = mountTui({ prompt: "Deploy" });
    t.state("running");
    const ask = t.ask({
      ask: "tool_approval",
      tool: "execute_command",
      callId: "c",
      summary: "make deploy",
      input: { command: "make deploy" },
    });
    await settle();
    await t.type("y");
    expect(t.dispatched).toEqual([{ type: "answer", askId: ask.id, response: "approve" }]);
    t.state("running");
    await t.type("be careful", KEYS.enter);
    expect(t.dispatched[1]).toEqual({ type: "send_message", text: "be careful" });
    expect(t.frame()).toContain("⏸ queued: be careful");
  });
});

/** The input box: several lines, history, pastes kept aside, `@path` completion. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KEYS, type MountedTui, mountTui, settle } from "./harness.js";

let t: MountedTui;
afterEach(() => t.unmount());

describe("the input box", () => {
  it("takes several lines (Alt-Enter, Ctrl-J, or a trailing backslash) and sends them as one message", async () => {
    t = mountTui();
    await t.type("first line", KEYS.altEnter, "second", "\n", "third\\", KEYS.enter, "fourth");
    expect(t.frame()).toContain("› first line");
    expect(t.frame()).toContain("  second");
    await t.type(KEYS.enter);
    expect(t.runs).toEqual(["first line\nsecond\nthird\nfourth"]);
  });

  it("edits in place: arrows, Backspace, Ctrl-A, Ctrl-E, Ctrl-U, Ctrl-W", async () => {
    t = mountTui();
    await t.type("fix teh bug", "\x1b[D", "\x1b[D", "\x1b[D", "\x1b[D", KEYS.backspace, KEYS.backspace, "he");
    expect(t.tui.input.get().draft.text).toBe("fix the bug");
    await t.type("\x01", "please ", "\x05", " now");
    expect(t.tui.input.get().draft.text).toBe("please fix the bug now");
    await t.type("\x17");
    expect(t.tui.input.get().draft.text).toBe("please fix the bug ");
    await t.type("\x15");
    expect(t.tui.input.get().draft.text).toBe("");
  });

  it("recalls earlier messages with up and down, keeping the draft being written", async () => {
    t = mountTui();
    await t.type("first", KEYS.enter);
    t.state("completed");
    await t.type("second", KEYS.enter);
    t.state("completed");
    await t.type("draft");
    await t.type(KEYS.up);
    expect(t.tui.input.get().draft.text).toBe("second");
    await t.type(KEYS.up, KEYS.up);
    expect(t.tui.input.get().draft.text).toBe("first");
    await t.type(KEYS.down, KEYS.down);
    expect(t.tui.input.get().draft.text).toBe("draft");
  });

  it("collapses a large bracketed paste to a placeholder and sends it whole", async () => {
    t = mountTui();
    const log = Array.from({ length: 40 }, (_, i) => `error at line ${i}`).join("\n");
    await t.type("why does this fail? ", KEYS.pasteStart, log.slice(0, 300), log.slice(300), KEYS.pasteEnd);
    expect(t.frame()).toContain("why does this fail? [Pasted text #1 +40 lines]");
    expect(t.frame()).not.toContain("error at line 39");
    await t.type(KEYS.enter);
    expect(t.runs).toEqual([`why does this fail? ${log}`]);
  });

  it("sends a line typed ahead with its Enter in one chunk, and keeps an unbracketed multi-line chunk as a paste", async () => {
    t = mountTui();
    await t.type("fix the failing test\r");
    expect(t.runs).toEqual(["fix the failing test"]);
    await t.type("a\rb\r");
    expect(t.runs).toHaveLength(1);
    expect(t.tui.input.get().draft.text).toBe("a\nb\n");
  });

  it("inserts a small paste as text, and removes a placeholder with one Backspace", async () => {
    t = mountTui();
    await t.type(KEYS.pasteStart, "a\nb", KEYS.pasteEnd);
    expect(t.tui.input.get().draft.text).toBe("a\nb");
    await t.type("\x15", "\x15", KEYS.backspace, KEYS.backspace);
    const big = "x".repeat(2000);
    await t.type(KEYS.pasteStart, big, KEYS.pasteEnd);
    expect(t.tui.input.get().draft.text).toBe("[Pasted text #1 +1 lines]");
    await t.type(KEYS.backspace);
    expect(t.tui.input.get().draft.text).toBe("");
  });

  it("completes @path mentions from the workspace files", async () => {
    t = mountTui();
    mkdirSync(join(t.cwd, "src", "parser"), { recursive: true });
    mkdirSync(join(t.cwd, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(t.cwd, "src", "parser", "tokens.ts"), "");
    writeFileSync(join(t.cwd, "src", "index.ts"), "");
    writeFileSync(join(t.cwd, "node_modules", "dep", "tokens.js"), "");
    await t.type("look at @tok");
    await settle(100);
    await t.type("e");
    expect(t.frame()).toContain("› @src/parser/tokens.ts");
    expect(t.frame()).not.toContain("node_modules");
    await t.type(KEYS.tab);
    expect(t.tui.input.get().draft.text).toBe("look at @src/parser/tokens.ts ");
    await t.type("and @src/", KEYS.escape);
    expect(t.frame()).not.toContain("Tab or Enter completes");
    await t.type(KEYS.enter);
    expect(t.runs).toEqual(["look at @src/parser/tokens.ts and @src/"]);
  });
});

/** Approvals: what a call will do (a diff, a command), and the keys that answer. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import chalk from "chalk";
import { afterEach, describe, expect, it } from "vitest";
import { KEYS, type MountedTui, mountTui, settle } from "./harness.js";

const ESC = String.fromCharCode(27);

let t: MountedTui;
afterEach(() => t.unmount());

function askWrite(t: MountedTui, path: string, content: string) {
  t.say({
    say: "tool",
    tool: "write_to_file",
    callId: "c1",
    summary: `write_to_file ${path}`,
    input: { path, content },
    status: "pending",
  });
  return t.ask({
    ask: "tool_approval",
    tool: "write_to_file",
    callId: "c1",
    summary: `write_to_file ${path}`,
    input: { path, content },
  });
}

describe("approval of an edit", () => {
  it("shows a unified diff against the file as it is, and approves once with y", async () => {
    t = mountTui();
    mkdirSync(join(t.cwd, "src"));
    writeFileSync(join(t.cwd, "src", "add.js"), "export function add(a, b) {\n  return a - b;\n}\n");
    t.state("running");
    const ask = askWrite(t, "src/add.js", "export function add(a, b) {\n  return a + b;\n}\n");
    await settle();
    const frame = t.frame();
    expect(frame).toContain("Allow this change?  write_to_file src/add.js");
    expect(frame).toContain("--- a/src/add.js");
    expect(frame).toContain("@@ -1,3 +1,3 @@");
    expect(frame).toContain("-  return a - b;");
    expect(frame).toContain("+  return a + b;");
    expect(frame).toContain("+1 -1");
    expect(frame).toContain("[a] always (write_to_file(src/**))");
    await t.type("x", "y");
    expect(t.dispatched).toEqual([{ type: "answer", askId: ask.id, response: "approve" }]);
    // Typing while the approval is open goes nowhere: the keys belong to the approval.
    expect(t.tui.input.get().draft.text).toBe("");
    expect(t.frame()).not.toContain("Allow this change?");
  });

  it("colours added lines green, and not at all with NO_COLOR (the + mark stays)", async () => {
    const level = chalk.level;
    chalk.level = 1; // as in a terminal (the test's stdout is not one)
    try {
      t = mountTui({ env: {} });
      askWrite(t, "new.txt", "hello\n");
      await settle();
      expect(t.frame()).toContain("new file · +1 -0");
      expect(t.rawFrame()).toContain("\x1b[32m+hello");
      t.unmount();
      t = mountTui({ env: { NO_COLOR: "1" } });
      askWrite(t, "new.txt", "hello\n");
      await settle();
      expect(t.frame()).toContain("+hello");
      // No SGR foreground colour (30-37, 90-97, 38;...) anywhere.
      expect(t.rawFrame()).not.toMatch(new RegExp(`${ESC}\\[(3[0-7]|9[0-7]|38;)`));
    } finally {
      chalk.level = level;
    }
  });

  it("shows SEARCH/REPLACE blocks as hunks placed in the file", async () => {
    t = mountTui();
    writeFileSync(join(t.cwd, "a.py"), "import os\n\ndef main():\n    print('hi')\n");
    const diff =
      "------- SEARCH\ndef main():\n    print('hi')\n=======\ndef main():\n    print('hello')\n+++++++ REPLACE";
    t.ask({
      ask: "tool_approval",
      tool: "replace_in_file",
      callId: "c2",
      summary: "replace_in_file a.py",
      input: { path: "a.py", diff },
    });
    await settle();
    expect(t.frame()).toContain("@@ line 3 @@");
    expect(t.frame()).toContain("-    print('hi')");
    expect(t.frame()).toContain("+    print('hello')");
  });

  it("approve always: approves and asks the core to remember the rule it shows", async () => {
    t = mountTui();
    const first = askWrite(t, "src/a.ts", "a\n");
    await settle();
    await t.type("a");
    expect(t.dispatched[0]).toEqual({
      type: "answer",
      askId: first.id,
      response: "approve",
      remember: "write_to_file(src/**)",
    });
    // What the rule covers is the core's to decide: a later call it does not cover is asked.
    t.state("running");
    const outside = askWrite(t, "lib/c.ts", "c\n");
    await settle();
    expect(t.frame()).toContain("Allow this change?  write_to_file lib/c.ts");
    await t.type("n");
    expect(t.dispatched[1]).toEqual({ type: "answer", askId: outside.id, response: "deny" });
  });

  it("deny with feedback: f, then the reason, then Enter", async () => {
    t = mountTui();
    const ask = askWrite(t, "NOTE.md", "hello\n");
    await settle();
    await t.type("f");
    expect(t.frame()).toContain("Type why (and what to do instead)");
    await t.type("write README.md instead", KEYS.enter);
    expect(t.dispatched).toEqual([
      { type: "answer", askId: ask.id, response: "deny", text: "write README.md instead" },
    ]);
    expect(t.tui.input.get().feedback).toBe(false);
  });

  it("v prints a long diff whole into the scrollback", async () => {
    t = mountTui();
    const content = `${Array.from({ length: 80 }, (_, i) => `row ${i}`).join("\n")}\n`;
    askWrite(t, "long.txt", content);
    await settle();
    expect(t.frame()).toMatch(/… \d+ more lines · v prints it all above/);
    expect(t.frame()).not.toContain("+row 79");
    await t.type("v");
    expect(t.frame()).toContain("+row 79");
  });
});

describe("approval of a command", () => {
  it("shows the command and its parts, and denies with n", async () => {
    t = mountTui();
    const command = "npm test && rm -rf build | tee log.txt";
    const ask = t.ask({
      ask: "tool_approval",
      tool: "execute_command",
      callId: "c3",
      summary: `execute_command ${command}`,
      input: { command, requires_approval: true },
    });
    await settle();
    const frame = t.frame();
    expect(frame).toContain("Run this command?");
    expect(frame).toContain(`$ ${command}`);
    expect(frame).toContain("3 commands: npm test  ·  rm -rf build  ·  tee log.txt");
    expect(frame).toContain("[a] always (execute_command(npm test))");
    await t.type("n");
    expect(t.dispatched).toEqual([{ type: "answer", askId: ask.id, response: "deny" }]);
  });
});

/**
 * `bowline checkpoints restore` when files were changed outside the task: asked on a terminal
 * (a real pseudo-terminal here), refused without one unless `--force`.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCheckpointsCommand } from "../../../src/hosts/cli/checkpoints.js";
import { runInPty } from "../../hosts/tui/pty.js";
import { REPO_ROOT } from "../../support/cli.js";
import { createSandbox, openTask, type Sandbox, saved } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({ "a.txt": "one\n" });
});
afterEach(() => box.remove());

/** A baseline, a step by the task, then an edit by the person: restoring the baseline conflicts. */
async function conflicting() {
  const task = await openTask(box, "task-1");
  const baseline = saved(await task.baseline()).checkpoint;
  box.write({ "a.txt": "by the task\n" });
  saved(await task.afterStep("edit"));
  box.write({ "a.txt": "by the person\n" });
  return baseline.id;
}

function restoreInTerminal(id: string) {
  return runInPty(join(import.meta.dirname, "cli-driver.ts"), {
    cwd: box.ws,
    env: { BOWLINE_HOME: box.home },
    // The workspace is elsewhere: tsx is named by its path.
    nodeArgs: ["--import", pathToFileURL(join(REPO_ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href],
    args: ["restore", id, "--mode", "files"],
    cols: 120,
  });
}

describe("restoring over changes made outside the task", () => {
  it("asks on a terminal, and overwrites only when told yes", async () => {
    const id = await conflicting();
    const declined = restoreInTerminal(id);
    await declined.waitFor("Overwrite them?");
    expect(declined.screen().join("\n")).toContain("  a.txt");
    declined.press("\r");
    expect(await declined.exited).toBe(1);
    expect(declined.output()).toContain("Not restored.");
    expect(box.read("a.txt")).toBe("by the person\n");

    const accepted = restoreInTerminal(id);
    await accepted.waitFor("Overwrite them?");
    accepted.press("y\r");
    expect(await accepted.exited).toBe(0);
    expect(accepted.output()).toContain("Undo with: bowline checkpoints restore");
    expect(box.read("a.txt")).toBe("one\n");
  }, 60_000);

  it("without a terminal, is refused unless forced; a confirm seam decides when given", async () => {
    const id = await conflicting();
    const run = async (argv: string[], confirm?: (question: string) => Promise<boolean>) => {
      const err: string[] = [];
      const asked: string[] = [];
      const code = await runCheckpointsCommand(
        argv,
        box.ws,
        { ...process.env, BOWLINE_HOME: box.home },
        {
          out: () => {},
          err: (text) => err.push(text),
          ...(confirm
            ? {
                confirm: async (question: string) => {
                  asked.push(question);
                  return confirm(question);
                },
              }
            : {}),
        },
      );
      return { code, err: err.join("\n"), asked };
    };
    const refused = await run(["restore", id, "--mode", "files"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("Run again with --force");
    const declined = await run(["restore", id, "--mode", "files"], async () => false);
    expect(declined).toMatchObject({ code: 1, err: "bowline: Not restored." });
    expect(declined.asked[0]).toContain("  a.txt\nOverwrite them?");
    expect(box.read("a.txt")).toBe("by the person\n");
    // --force asks no one.
    const forced = await run(["restore", id, "--mode", "files", "--force"], async () => false);
    expect(forced).toMatchObject({ code: 0, asked: [] });
    expect(box.read("a.txt")).toBe("one\n");
  });
});

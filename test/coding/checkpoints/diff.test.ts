import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { available, createSandbox, openTask, type Sandbox, saved } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({
    "a.txt": "one\ntwo\nthree\n",
    "gone.txt": "bye\n",
    "pic.dat": Buffer.from([0, 1, 2, 3]),
  });
});
afterEach(() => box.remove());

describe("diff", () => {
  it("between two checkpoints: statuses, line counts, binary files and unified diffs", async () => {
    const task = await openTask(box, "task-1");
    const first = saved(await task.baseline()).checkpoint;
    box.write({
      "a.txt": "one\n2\nthree\nfour\n",
      "new file.txt": "hello\n",
      "pic.dat": Buffer.from([0, 9]),
    });
    rmSync(join(box.ws, "gone.txt"));
    const second = saved(await task.afterStep("edit")).checkpoint;

    const diff = available(await task.diff(first.id, second.id));
    expect(diff).toMatchObject({ from: first.id, to: second.id });
    expect(diff.files.map(({ patch, ...rest }) => rest)).toEqual([
      { path: "a.txt", status: "modified", added: 2, removed: 1, binary: false },
      { path: "gone.txt", status: "deleted", added: 0, removed: 1, binary: false },
      { path: "new file.txt", status: "added", added: 1, removed: 0, binary: false },
      { path: "pic.dat", status: "modified", added: 0, removed: 0, binary: true },
    ]);
    const [a, gone, added, pic] = diff.files.map((file) => file.patch ?? "");
    expect(a).toMatch(/^diff --git a\/a.txt b\/a.txt\n/);
    expect(a).toContain("@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n");
    expect(gone).toContain("deleted file mode 100644");
    expect(added).toContain("+hello");
    expect(pic).toContain("Binary files");

    // A checkpoint's own file list is its diff from the one before.
    expect(diff.files.map((f) => ({ path: f.path, status: f.status }))).toEqual(second.files);
    const reverse = available(await task.diff(second.id, first.id, { patch: false }));
    expect(reverse.files.find((f) => f.path === "new file.txt")).toMatchObject({ status: "deleted" });
    expect(reverse.files.every((f) => f.patch === undefined)).toBe(true);
  });

  it("from a checkpoint to the working tree, including files not yet checkpointed", async () => {
    const task = await openTask(box, "task-1");
    const first = saved(await task.baseline()).checkpoint;
    box.write({ "a.txt": "one\ntwo\nthree\nmore\n", "untracked.txt": "new\n" });
    const diff = available(await task.diff(first.id));
    expect(diff.to).toBe("worktree");
    expect(diff.files.map((f) => [f.path, f.status, f.added])).toEqual([
      ["a.txt", "modified", 1],
      ["untracked.txt", "added", 1],
    ]);
    // The next step still sees these changes as its own.
    expect(saved(await task.afterStep("edit")).checkpoint.files).toHaveLength(2);
    expect(available(await task.diff(first.id, first.id)).files).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TaskRewinder } from "../../src/coding/checkpoints/index.js";
import { runCheckpointsCommand } from "../../src/hosts/cli/checkpoints.js";
import { CheckpointSchema } from "../../src/protocol/checkpoint-commands.js";
import { createSandbox, openTask, type Sandbox, saved } from "../coding/checkpoints/support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({ "a.txt": "one\n", "b.txt": "bee\n" });
});
afterEach(() => box.remove());

async function run(argv: string[], rewinder?: TaskRewinder, cwd = box.ws) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { ...process.env, BOWLINE_HOME: box.home };
  const code = await runCheckpointsCommand(argv, cwd, env, {
    rewinder,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** A baseline and one step of task-1 (a.txt edited, c.txt added), and a baseline of task-2. */
async function history() {
  const task = await openTask(box, "task-1");
  const baseline = saved(await task.baseline()).checkpoint;
  box.write({ "a.txt": "one\ntwo\n", "c.txt": "sea\n" });
  const step = saved(await task.afterStep("write_to_file a.txt")).checkpoint;
  const other = saved(await (await openTask(box, "task-2")).baseline()).checkpoint;
  return { baseline, step, other };
}

describe("bowline checkpoints list", () => {
  it("says when the workspace has none, without creating a store", async () => {
    expect(await run([])).toMatchObject({
      code: 0,
      out: expect.stringContaining("No checkpoints were taken"),
    });
    expect(await run(["list", "--json"])).toMatchObject({ code: 0, out: "[]" });
    expect(box.exists("../home/checkpoints")).toBe(false);
  });

  it("prints JSON oldest first, filtered by task, and text with the store size", async () => {
    const { baseline, step, other } = await history();
    const all = await run(["list", "--json"]);
    const listed = JSON.parse(all.out) as unknown[];
    expect(listed.map((c) => CheckpointSchema.parse(c).id)).toEqual([baseline.id, step.id, other.id]);
    expect(listed[1]).toMatchObject({
      taskId: "task-1",
      createdAt: step.createdAt,
      files: [
        { path: "a.txt", status: "modified" },
        { path: "c.txt", status: "added" },
      ],
    });
    const one = JSON.parse((await run(["list", "--task", "task-2", "--json"])).out);
    expect(one.map((c: { id: string }) => c.id)).toEqual([other.id]);

    const text = await run([]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^Checkpoints of .*ws \(store: [\d.]+ KB\)$/m);
    expect(text.out).toContain(`${step.id.slice(0, 10)}  `);
    expect(text.out).toContain("step         write_to_file a.txt  (2 files: ~a.txt +c.txt)");
  });
});

describe("bowline checkpoints diff", () => {
  it("compares two checkpoints, or one with the working tree", async () => {
    const { baseline, step } = await history();
    const json = await run(["diff", baseline.id.slice(0, 7), step.id, "--json"]);
    expect(json.code).toBe(0);
    const diff = JSON.parse(json.out);
    expect(diff.files.map((f: { path: string; added: number }) => [f.path, f.added])).toEqual([
      ["a.txt", 1],
      ["c.txt", 1],
    ]);
    box.write({ "b.txt": "changed\n" });
    const text = await run(["diff", step.id]);
    expect(text.out).toContain("→ the working tree: 1 file\n  ~ b.txt (+1 -1)");
    expect(text.out).toContain("-bee\n+changed");
  });
});

describe("bowline checkpoints restore", () => {
  it("restores files, removing those created later, and says how to undo", async () => {
    const { baseline } = await history();
    const result = await run(["restore", baseline.id, "--mode", "files"]);
    expect(result.code).toBe(0);
    expect(result.out).toContain("(2 files):\n  ~ a.txt\n  - c.txt");
    expect(result.out).toMatch(/Undo with: bowline checkpoints restore [0-9a-f]{10} --mode files/);
    expect(box.read("a.txt")).toBe("one\n");
    expect(box.exists("c.txt")).toBe(false);
  });

  it("refuses to overwrite changes made outside the task unless forced", async () => {
    const { baseline } = await history();
    box.write({ "a.txt": "edited by hand\n" });
    const refused = await run(["restore", baseline.id, "--mode", "files"]);
    expect(refused).toMatchObject({
      code: 1,
      err: expect.stringContaining("  a.txt\nRun again with --force"),
    });
    expect(box.read("a.txt")).toBe("edited by hand\n");
    expect((await run(["restore", baseline.id, "--mode", "files", "--force"])).code).toBe(0);
    expect(box.read("a.txt")).toBe("one\n");
  });

  it("rewinds the task through the rewinder, and says task restore is not available without one", async () => {
    const { baseline, step } = await history();
    const missing = await run(["restore", step.id, "--mode", "both"]);
    expect(missing).toMatchObject({ code: 2, err: expect.stringContaining("not available yet") });
    expect(box.exists("c.txt")).toBe(true);

    const calls: string[][] = [];
    const rewinder: TaskRewinder = { rewind: async (taskId, id) => void calls.push([taskId, id]) };
    expect((await run(["restore", step.id.slice(0, 8), "--mode", "task"], rewinder)).code).toBe(0);
    expect(box.read("a.txt")).toBe("one\ntwo\n");
    const both = await run(["restore", baseline.id, "--mode", "both"], rewinder);
    expect(both.code).toBe(0);
    expect(both.out).toContain(`Task task-1 rewound to checkpoint ${baseline.id.slice(0, 10)}.`);
    expect(calls).toEqual([
      ["task-1", step.id],
      ["task-1", baseline.id],
    ]);
    expect(box.exists("c.txt")).toBe(false);
  });
});

describe("errors", () => {
  it("reports usage errors, unknown ids and refused workspaces", async () => {
    await history();
    expect(await run(["frobnicate"])).toMatchObject({ code: 2, err: expect.stringContaining("Unknown") });
    expect(await run(["restore", "abcd"])).toMatchObject({ code: 2, err: expect.stringContaining("--mode") });
    expect(await run(["diff"])).toMatchObject({ code: 2 });
    expect(await run(["restore", "abcdef0", "--mode", "files"])).toMatchObject({
      code: 1,
      err: "bowline: No checkpoint abcdef0.",
    });
    expect(await run(["list"], undefined, "/")).toMatchObject({
      code: 2,
      err: expect.stringContaining("root of the file system"),
    });
  });
});

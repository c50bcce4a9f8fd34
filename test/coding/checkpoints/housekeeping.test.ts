import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShadowGit, runGit } from "../../../src/coding/checkpoints/git.js";
import { storeDirFor } from "../../../src/coding/checkpoints/location.js";
import { createSandbox, openTask, type Sandbox, saved } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({ "a.txt": "0\n" });
});
afterEach(() => box.remove());

const storeDir = () => storeDirFor(box.home, box.ws);

async function steps(taskId: string, count: number) {
  const task = await openTask(box, taskId);
  const ids = [saved(await task.baseline()).checkpoint.id];
  for (let i = 1; i <= count; i++) {
    box.write({ [`${taskId}.txt`]: `${i}\n` });
    ids.push(saved(await task.afterStep(`step ${i}`)).checkpoint.id);
  }
  return { task, ids };
}

describe("pruning", () => {
  it("keeps the newest checkpoints of each task, and the next step still follows the last", async () => {
    const { task, ids } = await steps("task-1", 4);
    const removed = await task.prune({ maxPerTask: 2 });
    expect(removed.map((c) => c.id)).toEqual(ids.slice(0, 3));
    expect((await task.list()).map((c) => c.id)).toEqual(ids.slice(3));
    box.write({ "task-1.txt": "after\n" });
    const next = saved(await task.afterStep("after pruning")).checkpoint;
    expect(next).toMatchObject({ previousId: ids[4], files: [{ path: "task-1.txt", status: "modified" }] });
  });

  it("drops checkpoints past the age limit and past the workspace total", async () => {
    const older = await steps("task-1", 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const boundary = Date.now();
    const newer = await steps("task-2", 2);
    await older.task.prune({ maxAgeMs: Date.now() - boundary });
    expect((await newer.task.list()).map((c) => c.id)).toEqual(newer.ids);
    await newer.task.prune({ maxTotal: 1 });
    expect((await newer.task.list()).map((c) => c.id)).toEqual(newer.ids.slice(2));
    // A task whose checkpoints are all gone starts afresh.
    box.write({ "task-1.txt": "again\n" });
    expect(saved(await older.task.afterStep("again")).checkpoint.previousId).toBeUndefined();
  });
});

describe("gc and size", () => {
  it("runs after the baseline in the background, packs the store and keeps checkpoints usable", async () => {
    const { task, ids } = await steps("task-1", 3);
    await task.settled();
    const meta = JSON.parse(readFileSync(join(storeDir(), "meta.json"), "utf8"));
    expect(meta.lastGcAt).toBeGreaterThan(Date.now() - 60_000);
    await task.gc();
    const git = createShadowGit(storeDir(), box.ws, process.env);
    const counts = (await runGit(git, ["count-objects", "-v"])).stdout;
    expect(counts).toMatch(/^count: 0$/m);
    expect(counts).toMatch(/^packs: 1$/m);
    expect(await task.size()).toBeGreaterThan(0);
    const restored = await task.restore(ids[1]!, { force: true });
    expect(restored).toMatchObject({ status: "restored" });
    expect(box.read("task-1.txt")).toBe("1\n");
  });
});

import { execFile, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShadowGit, runGit } from "../../../src/coding/checkpoints/git.js";
import { storeDirFor } from "../../../src/coding/checkpoints/location.js";
import { createSandbox, openTask, type Sandbox, saved } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({ "shared.txt": "shared\n" });
});
afterEach(() => box.remove());

const git = () => createShadowGit(storeDirFor(box.home, box.ws), box.ws, process.env);

/** Each task's own files appear in its own steps, in order, and the store is sound. */
async function expectSound(taskIds: string[], steps: number) {
  const { stdout } = await runGit(git(), ["fsck", "--strict", "--no-dangling"]);
  expect(stdout).toBe("");
  for (const taskId of taskIds) {
    const task = await openTask(box, taskId);
    const list = await task.list({ taskId });
    expect(list.map((c) => c.kind)).toEqual(["baseline", ...Array(steps).fill("step")]);
    list.slice(1).forEach((checkpoint, i) => {
      expect(checkpoint.previousId).toBe(list[i]!.id);
      expect(checkpoint.files.map((f) => f.path)).toContain(`${taskId}/f${i}.txt`);
    });
  }
}

describe("two tasks in one workspace", () => {
  it("in one process, interleaved, keep their own checkpoints", async () => {
    const steps = 6;
    const run = async (taskId: string) => {
      const task = await openTask(box, taskId);
      saved(await task.baseline());
      mkdirSync(join(box.ws, taskId), { recursive: true });
      for (let i = 0; i < steps; i++) {
        writeFileSync(join(box.ws, taskId, `f${i}.txt`), `${taskId} ${i}\n`);
        saved(await task.afterStep(`step ${i}`));
      }
    };
    await Promise.all([run("task-a"), run("task-b")]);
    await expectSound(["task-a", "task-b"], steps);
  });

  it("in two processes, do not corrupt each other", async () => {
    const steps = 8;
    const worker = join(import.meta.dirname, "step-worker.ts");
    const child = promisify(execFile)(process.execPath, [
      "--import",
      "tsx",
      worker,
      box.home,
      box.ws,
      "task-b",
      String(steps),
    ]);
    const task = await openTask(box, "task-a");
    saved(await task.baseline());
    mkdirSync(join(box.ws, "task-a"), { recursive: true });
    while (!box.exists("task-b.started")) await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < steps; i++) {
      writeFileSync(join(box.ws, "task-a", `f${i}.txt`), `task-a ${i}\n`);
      saved(await task.afterStep(`step ${i}`));
    }
    const ids = JSON.parse((await child).stdout) as string[];
    expect(new Set(ids).size).toBe(steps + 1);
    await expectSound(["task-a", "task-b"], steps);
  });

  it("takes over a lock left by a dead process, and waits for a live one", async () => {
    const first = await openTask(box, "task-a");
    saved(await first.baseline());
    await first.settled(); // background housekeeping takes the lock too
    const lock = join(git().storeDir, "lock");
    writeFileSync(lock, "4194303\n"); // above Linux's pid range: no such process
    box.write({ "shared.txt": "changed\n" });
    expect(saved(await first.afterStep("after a crash")).created).toBe(true);

    const holder = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      writeFileSync(lock, `${holder.pid}\n`);
      const waiting = await openTask(box, "task-b", { lockTimeoutMs: 300 });
      await expect(waiting.baseline()).rejects.toThrow(/Another task has held the checkpoint store/);
    } finally {
      holder.kill();
    }
  });
});

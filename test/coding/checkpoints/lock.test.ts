/** The store lock between processes: a lock left by a killed process is taken over, not waited out. */
import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withStoreLock } from "../../../src/coding/checkpoints/lock.js";

describe("the store lock", () => {
  it("takes over a lock whose owner is gone", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bowline-lock-"));
    writeFileSync(join(dir, "lock"), "999999999\n");
    await expect(withStoreLock(dir, 3_000, async () => "ran")).resolves.toBe("ran");
  });

  it("takes over an ownerless lock left by a process killed while taking it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bowline-lock-"));
    writeFileSync(join(dir, "lock"), "");
    const old = new Date(Date.now() - 10_000);
    utimesSync(join(dir, "lock"), old, old);
    await expect(withStoreLock(dir, 3_000, async () => "ran")).resolves.toBe("ran");
  });

  it("waits for a live owner, then reports it held the store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bowline-lock-"));
    writeFileSync(join(dir, "lock"), `${process.ppid}\n`);
    await expect(withStoreLock(dir, 300, async () => "ran")).rejects.toThrow(/held the checkpoint store/);
  });
});

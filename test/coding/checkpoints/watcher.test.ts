/**
 * Checkpoints of a watched workspace: a step's checkpoint looks only at the paths the kernel said
 * changed, and must record exactly what a full scan would. Every step here is checked against a
 * full scan (a store that does not watch, comparing the checkpoint with the files).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CheckpointStoreOptions,
  isUnavailable,
  openCheckpointStore,
  type TaskCheckpoints,
} from "../../../src/coding/checkpoints/index.js";
import { available, createSandbox, openTask, paths, type Sandbox, saved } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({
    "src/a.ts": "export const a = 1;\n",
    "src/lib/util.ts": "export const util = 1;\n",
    "docs/guide.md": "# guide\n",
    "b.txt": "bee\n",
    ".gitignore": "generated/\n*.secret\n",
  });
});
afterEach(() => box.remove());

/** Runs a shell script in the workspace, as a command of the task would. */
const sh = (script: string) => execFileSync("sh", ["-c", script], { cwd: box.ws });

/** The options of the task under test, which the full scan must share. */
let options: Partial<CheckpointStoreOptions> = {};

/** What a full scan finds different from the checkpoint (nothing, when the watcher missed nothing). */
async function missed(checkpointId: string): Promise<string[]> {
  const { limits, exclude } = options;
  const store = await openCheckpointStore({
    home: box.home,
    workspace: box.ws,
    create: false,
    limits,
    exclude,
  });
  if (isUnavailable(store)) throw new Error(store.message);
  return available(await store.diff(checkpointId)).files.map((file) => `${file.status} ${file.path}`);
}

/** A step's checkpoint, which must have looked at the changed paths only and missed nothing. */
async function incrementalStep(task: TaskCheckpoints, label: string) {
  const step = saved(await task.afterStep(label));
  expect(task.watching().last).toBe("changed paths");
  expect(await missed(step.checkpoint.id)).toEqual([]);
  return step;
}

async function watchedTask(taskOptions: Partial<CheckpointStoreOptions> = {}) {
  options = taskOptions;
  const task = await openTask(box, "task-1", options);
  saved(await task.baseline());
  expect(task.watching().full).toBe(1);
  return task;
}

describe("a watched workspace", () => {
  it("captures shell-made files in new folders, deletions and renames of files and folders", async () => {
    const task = await watchedTask();
    sh("mkdir -p gen/deep/er && echo x > gen/deep/er/x.ts && echo y > gen/y.ts && rm b.txt");
    expect(paths(await incrementalStep(task, "generate"))).toEqual(["b.txt", "gen/deep/er/x.ts", "gen/y.ts"]);

    sh("mv src/lib src/library && mv docs/guide.md docs/manual.md && mv gen/deep gen/shallow");
    const moved = await incrementalStep(task, "move");
    expect(moved.checkpoint.files).toEqual([
      { path: "docs/guide.md", status: "deleted" },
      { path: "docs/manual.md", status: "added" },
      { path: "gen/deep/er/x.ts", status: "deleted" },
      { path: "gen/shallow/er/x.ts", status: "added" },
      { path: "src/lib/util.ts", status: "deleted" },
      { path: "src/library/util.ts", status: "added" },
    ]);

    // A folder replaced by another moved into its place, a file by a folder, a folder by a file.
    sh("rm -rf gen && mkdir -p gen2/sub && echo z > gen2/sub/z.ts && mv gen2 gen");
    sh("rm docs/manual.md && mkdir docs/manual.md && echo w > docs/manual.md/w.md");
    sh("rm -rf src/library && echo file > src/library");
    const replaced = await incrementalStep(task, "replace");
    expect(replaced.checkpoint.files).toEqual([
      { path: "docs/manual.md", status: "deleted" },
      { path: "docs/manual.md/w.md", status: "added" },
      { path: "gen/shallow/er/x.ts", status: "deleted" },
      { path: "gen/sub/z.ts", status: "added" },
      { path: "gen/y.ts", status: "deleted" },
      { path: "src/library", status: "added" },
      { path: "src/library/util.ts", status: "deleted" },
    ]);

    chmodSync(join(box.ws, "src/a.ts"), 0o755);
    symlinkSync("src/a.ts", join(box.ws, "link.ts"));
    const linked = await incrementalStep(task, "link");
    expect(linked.checkpoint.files).toEqual([
      { path: "link.ts", status: "added" },
      { path: "src/a.ts", status: "modified" },
    ]);
    expect(task.watching()).toMatchObject({ incremental: 4, full: 1 });
  });

  it("leaves ignored files out, and scans everything when the ignore rules change", async () => {
    const task = await watchedTask();
    sh(
      "mkdir -p generated/bin node_modules/dep && echo 1 > generated/bin/tool && echo 2 > node_modules/dep/i.js",
    );
    sh("echo k > key.secret && echo l > src/debug.log && echo kept > src/kept.ts");
    const step = await incrementalStep(task, "build");
    expect(paths(step)).toEqual(["src/kept.ts"]);
    // Ignored folders are not watched at all.
    expect(task.watching().watching).toBe(4); // ., src, src/lib and docs

    box.write({ ".gitignore": "*.secret\n" });
    const unignored = saved(await task.afterStep("unignore generated/"));
    expect(task.watching().last).toBe("full: ignore rules changed");
    expect(paths(unignored)).toEqual([".gitignore", "generated/bin/tool"]);
    // The folder is watched from then on.
    sh("echo 3 > generated/bin/tool2");
    expect(paths(await incrementalStep(task, "tool2"))).toEqual(["generated/bin/tool2"]);
  });

  it("scans everything when a repository appears, and leaves it out", async () => {
    const task = await watchedTask();
    sh(
      "mkdir -p vendored/lib && echo v > vendored/lib/v.ts && git init -q vendored/lib && echo s > src/s.ts",
    );
    const step = saved(await task.afterStep("clone"));
    expect(task.watching().last).toMatch(/^full: a repository appeared/);
    expect(paths(step)).toEqual(["src/s.ts"]);
    sh("echo again > vendored/lib/v.ts && echo t > src/t.ts");
    expect(paths(await incrementalStep(task, "edit"))).toEqual(["src/t.ts"]);
  });

  it("falls back to a full scan when the kernel's event queue overflows", async () => {
    const task = await watchedTask({ watch: { maxPaths: 1_000_000 } });
    // The event loop is blocked while the child runs, so inotify's queue (16,384 events by
    // default) overflows and the last changes' events are dropped by the kernel.
    const script = `
      const fs = require("fs");
      for (let i = 0; i < 12000; i++) fs.writeFileSync("docs/f" + i + ".txt", String(i));
      fs.writeFileSync("src/a.ts", "changed last\\n");`;
    const child = spawnSync(process.execPath, ["-e", script], { cwd: box.ws });
    expect(child.status).toBe(0);
    const step = saved(await task.afterStep("flood"));
    expect(task.watching().last).toMatch(/^full: more file events than the kernel's queue/);
    expect(step.checkpoint.files.length + (step.checkpoint.moreFiles ?? 0)).toBe(12_001);
    const diff = available(
      await task.diff(step.checkpoint.previousId!, step.checkpoint.id, { patch: false }),
    );
    expect(diff.files.find((file) => file.path === "src/a.ts")).toMatchObject({ status: "modified" });
    expect(await missed(step.checkpoint.id)).toEqual([]);
    // Watching goes on after the full scan.
    box.write({ "docs/f1.txt": "edited\n" });
    expect(paths(await incrementalStep(task, "after"))).toEqual(["docs/f1.txt"]);
  }, 60_000);

  it("scans everything, and captures everything, when it cannot watch", async () => {
    const task = await watchedTask({ watch: { maxFolders: 2 } });
    expect(task.watching().off).toMatch(/more than 2 folders/);
    sh("mkdir -p src/new && echo n > src/new/n.ts && rm docs/guide.md");
    const step = saved(await task.afterStep("edit"));
    expect(task.watching().last).toMatch(/^full: the workspace has more than 2 folders/);
    expect(paths(step)).toEqual(["docs/guide.md", "src/new/n.ts"]);
  });

  it("scans everything when there are too many changes to list", async () => {
    const task = await watchedTask({ watch: { maxPaths: 5 } });
    sh("for i in 1 2 3 4 5 6 7; do echo $i > src/f$i.ts; done");
    const step = saved(await task.afterStep("seven files"));
    expect(task.watching().last).toBe("full: too many changed paths");
    expect(paths(step)).toHaveLength(7);
  });

  it("enforces the limits on the changed paths alone", async () => {
    const task = await watchedTask({ limits: { maxFiles: 8, maxFileBytes: 1_000 } });
    sh("head -c 2000 /dev/zero > big.bin.txt && echo small > small.txt");
    const step = await incrementalStep(task, "big");
    expect(step).toMatchObject({ skipped: ["big.bin.txt"] });
    expect(paths(step)).toEqual(["small.txt"]);
    sh("mkdir many && for i in 1 2 3 4; do echo $i > many/$i.txt; done");
    const refused = await task.afterStep("too many");
    expect(refused).toMatchObject({ unavailable: true, reason: "limits_exceeded" });
    if (isUnavailable(refused)) expect(refused.message).toContain("10 files to track, over the limit of 8");
  });

  it("restores only the files that differ, removing those created since", async () => {
    const task = await watchedTask();
    const start = (await task.list())[0]!;
    const untouched = statSync(join(box.ws, "src/lib/util.ts"));
    sh("echo changed > src/a.ts && mkdir -p fresh/deep && echo f > fresh/deep/f.ts && rm b.txt");
    await incrementalStep(task, "edit");
    const restored = available(await task.restore(start.id));
    expect(restored).toMatchObject({
      status: "restored",
      changed: [
        { path: "b.txt", status: "added" },
        { path: "fresh/deep/f.ts", status: "deleted" },
        { path: "src/a.ts", status: "modified" },
      ],
    });
    expect(box.read("src/a.ts")).toBe("export const a = 1;\n");
    expect(box.read("b.txt")).toBe("bee\n");
    expect(box.exists("fresh")).toBe(false);
    const after = statSync(join(box.ws, "src/lib/util.ts"));
    expect([after.ino, after.mtimeMs]).toEqual([untouched.ino, untouched.mtimeMs]);
    // The restore's own writes are seen: the next step finds the workspace as restored.
    expect(saved(await task.afterStep("nothing")).created).toBe(false);
    expect(task.watching().last).toBe("changed paths");
  });

  it("matches a full scan through a run of mixed changes", async () => {
    const task = await watchedTask();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const folders = ["src", "src/lib", "docs", "new", "new/a", "new/a/b", "out"];
    for (let step = 0; step < 12; step++) {
      for (let change = 0; change < 4; change++) {
        const folder = folders[random(folders.length)]!;
        const file = join(box.ws, folder, `f${random(5)}.txt`);
        const action = random(6);
        if (action < 3) box.write({ [`${folder}/f${random(5)}.txt`]: `${step} ${change}\n` });
        else if (action === 3) rmSync(file, { force: true });
        else if (action === 4) rmSync(join(box.ws, folder), { recursive: true, force: true });
        else {
          try {
            renameSync(join(box.ws, folder), join(box.ws, `${folder}-moved`));
            renameSync(join(box.ws, `${folder}-moved`), join(box.ws, folders[random(3)]!, `m${step}`));
          } catch {
            // the folder is not there (or its new home is not): nothing moved
          }
        }
      }
      saved(await task.afterStep(`step ${step}`));
      const last = (await task.list()).at(-1)!;
      expect(await missed(last.id)).toEqual([]);
    }
    expect(task.watching().full).toBe(1);
  }, 60_000);
});

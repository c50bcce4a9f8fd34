import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isUnavailable, openCheckpoints } from "../../../src/coding/checkpoints/index.js";
import {
  available,
  createSandbox,
  fingerprint,
  openTask,
  paths,
  type Sandbox,
  saved,
  userGit,
  userRepo,
} from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({ "src/a.ts": "export const a = 1;\n", "README.md": "# project\n" });
});
afterEach(() => box.remove());

describe("the person's repositories", () => {
  it("are never changed: .git byte for byte, nested repositories and submodules untouched", async () => {
    userRepo(box.ws);
    // A stash and some local config.
    box.write({ "README.md": "# stashed edit\n" });
    userGit(box.ws, ["stash", "-q"]);
    userGit(box.ws, ["config", "core.autocrlf", "true"]);
    // A nested repository with history, one without any commit, and a submodule.
    box.write({ "libs/nested/n.ts": "nested\n", "libs/empty/e.ts": "empty\n" });
    userRepo(join(box.ws, "libs", "nested"));
    userGit(join(box.ws, "libs", "empty"), ["init", "-q"]);
    const source = join(box.root, "sub-source");
    mkdirSync(source);
    writeFileSync(join(source, "s.ts"), "submodule\n");
    userRepo(source);
    userGit(box.ws, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", source, "libs/sub"]);
    userGit(box.ws, ["commit", "-q", "-m", "add submodule"]);
    // Hooks that would leave a mark if anything ran them.
    for (const hook of ["pre-commit", "post-checkout", "post-index-change", "reference-transaction"]) {
      const path = join(box.ws, ".git", "hooks", hook);
      writeFileSync(path, `#!/bin/sh\ntouch "${join(box.root, "hook-ran")}"\n`);
      chmodSync(path, 0o755);
    }
    const gitBefore = fingerprint(join(box.ws, ".git"));

    // Git variables around Bowline must not redirect the engine to the person's repository.
    const gitDir = join(box.ws, ".git");
    const env = {
      ...process.env,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: box.ws,
      GIT_INDEX_FILE: join(gitDir, "index"),
    };
    const task = await openTask(box, "task-1", { env });
    const baseline = saved(await task.baseline());
    box.write({
      "src/a.ts": "changed\n",
      "src/b.ts": "new\n",
      "libs/nested/n.ts": "edited in the nested repo\n",
      "libs/nested/added.ts": "x\n",
      "libs/empty/e.ts": "edited\n",
      "libs/sub/s.ts": "edited in the submodule\n",
    });
    const step = saved(await task.afterStep("edit"));
    expect(paths(step)).toEqual(["src/a.ts", "src/b.ts"]);
    const nestedBefore = ["nested", "empty", "sub"].map((name) => fingerprint(join(box.ws, "libs", name)));

    available(await task.diff(baseline.checkpoint.id));
    const restored = available(await task.restore(baseline.checkpoint.id));
    expect(restored).toMatchObject({ status: "restored" });
    expect(box.read("src/a.ts")).toBe("export const a = 1;\n");
    await task.prune({ maxPerTask: 1 });
    await task.gc();

    expect(fingerprint(join(box.ws, ".git"))).toEqual(gitBefore);
    expect(["nested", "empty", "sub"].map((name) => fingerprint(join(box.ws, "libs", name)))).toEqual(
      nestedBefore,
    );
    expect(existsSync(join(box.root, "hook-ran"))).toBe(false);
    const everything = (await task.list()).flatMap((c) => c.files.map((f) => f.path));
    expect(everything.filter((path) => path.startsWith("libs/") || path.startsWith(".git"))).toEqual([]);
    expect(JSON.stringify(fingerprint(box.ws))).not.toContain("_disabled");
    expect(userGit(box.ws, ["stash", "list"])).toContain("stash@{0}");
  });
});

describe("refused workspaces", () => {
  it("refuses a home directory and the file-system root, creating nothing", async () => {
    for (const [workspace, env] of [
      [homedir(), process.env],
      [box.ws, { ...process.env, HOME: box.ws }],
      [box.root, { ...process.env, HOME: box.ws }],
      ["/", process.env],
    ] as const) {
      const opened = await openCheckpoints({ home: box.home, workspace, taskId: "t", env });
      expect(opened).toMatchObject({ unavailable: true, reason: "refused_directory" });
      if (isUnavailable(opened))
        expect(opened.message).toMatch(/is a home directory|holds the home|root of the file/);
    }
    expect(existsSync(join(box.home, "checkpoints"))).toBe(false);
  });
});

describe("limits", () => {
  it("switches checkpoints off past the file count, with a message, until the limits change", async () => {
    box.write(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`many/f${i}.ts`, `${i}\n`])));
    const limits = { maxFiles: 5 };
    const task = await openTask(box, "task-1", { limits });
    const refused = await task.baseline();
    expect(refused).toMatchObject({ unavailable: true, reason: "limits_exceeded" });
    if (!isUnavailable(refused)) throw new Error("not refused");
    expect(refused.message).toContain("12 files to track, over the limit of 5");
    expect(refused.message).toContain(".gitignore");
    expect(await task.list()).toEqual([]);

    // Remembered for the workspace: another task is refused at once.
    const again = await openTask(box, "task-2", { limits });
    expect(await again.afterStep("x")).toMatchObject({ unavailable: true, message: refused.message });
    // Raised limits try again.
    const raised = await openTask(box, "task-3", { limits: { maxFiles: 50 } });
    expect(saved(await raised.baseline()).created).toBe(true);
  });

  it("switches checkpoints off past the total size", async () => {
    box.write({ "data.txt": "x".repeat(5_000) });
    const task = await openTask(box, "task-1", { limits: { maxTotalBytes: 4_000 } });
    const refused = await task.baseline();
    expect(refused).toMatchObject({ unavailable: true, reason: "limits_exceeded" });
    if (isUnavailable(refused))
      expect(refused.message).toMatch(/would take 4\.9 KB, over the limit of 3\.9 KB/);
  });

  it("leaves files over the size limit out and names them", async () => {
    box.write({ "big.txt": "x".repeat(3_000) });
    const task = await openTask(box, "task-1", { limits: { maxFileBytes: 2_048 } });
    const baseline = saved(await task.baseline());
    expect(baseline.skipped).toEqual(["big.txt"]);
    box.write({ "big.txt": "y".repeat(3_000), "src/a.ts": "x".repeat(2_100) });
    const step = saved(await task.afterStep("grow"));
    expect(step.skipped).toEqual(["src/a.ts"]);
    expect(step.checkpoint.files).toEqual([{ path: "src/a.ts", status: "deleted" }]);
    // Once small again, a file is tracked again.
    box.write({ "big.txt": "small\n" });
    expect(paths(saved(await task.afterStep("shrink")))).toEqual(["big.txt"]);
  });
});

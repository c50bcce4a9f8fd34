import { execFile } from "node:child_process";
import { chmodSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckpointNotFoundError, isUnavailable } from "../../../src/coding/checkpoints/index.js";
import { createSandbox, openTask, paths, type Sandbox, saved } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = createSandbox({ "src/a.ts": "export const a = 1;\n", "b.txt": "bee\n", "docs/keep.md": "keep\n" });
});
afterEach(() => box.remove());

describe("save and restore", () => {
  it("records each step's changes and restores files, removing the ones created later", async () => {
    const task = await openTask(box, "task-1");
    const baseline = saved(await task.baseline());
    expect(baseline).toMatchObject({
      created: true,
      checkpoint: { kind: "baseline", taskId: "task-1", files: [] },
    });

    box.write({ "src/a.ts": "export const a = 2;\n", "src/new/deep.ts": "new\n" });
    rmSync(join(box.ws, "b.txt"));
    const step = saved(await task.afterStep("edit a.ts"));
    expect(step.checkpoint.files).toEqual([
      { path: "b.txt", status: "deleted" },
      { path: "src/a.ts", status: "modified" },
      { path: "src/new/deep.ts", status: "added" },
    ]);
    expect(step.checkpoint.previousId).toBe(baseline.checkpoint.id);

    const restored = await task.restore(baseline.checkpoint.id);
    expect(restored).toMatchObject({ status: "restored", undoId: step.checkpoint.id });
    expect(box.read("src/a.ts")).toBe("export const a = 1;\n");
    expect(box.read("b.txt")).toBe("bee\n");
    expect(box.exists("src/new/deep.ts")).toBe(false);
    expect(box.exists("src/new")).toBe(false);

    // The restore is itself undoable.
    const undone = await task.restore(step.checkpoint.id.slice(0, 8));
    expect(undone).toMatchObject({ status: "restored" });
    expect(box.read("src/a.ts")).toBe("export const a = 2;\n");
    expect(box.read("src/new/deep.ts")).toBe("new\n");
    expect(box.exists("b.txt")).toBe(false);
    expect((await task.list()).map((c) => c.kind)).toEqual(["baseline", "step", "restore", "restore"]);
  });

  it("restores many files at once as well as a few", async () => {
    const task = await openTask(box, "task-1");
    const baseline = saved(await task.baseline());
    box.write(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`gen/f${i}.ts`, `${i}\n`])));
    box.write({ "src/a.ts": "changed\n" });
    expect(saved(await task.afterStep("generate")).checkpoint.files).toHaveLength(301);
    const restored = await task.restore(baseline.checkpoint.id);
    expect(restored).toMatchObject({ status: "restored", changed: expect.any(Array) });
    expect(box.exists("gen")).toBe(false);
    expect(box.read("src/a.ts")).toBe("export const a = 1;\n");
  });

  it("captures files written by a child process", async () => {
    const task = await openTask(box, "task-1");
    saved(await task.baseline());
    const script =
      "require('fs').writeFileSync('made-by-shell.txt', 'hello'); require('fs').appendFileSync('b.txt', 'more\\n')";
    await promisify(execFile)(process.execPath, ["-e", script], { cwd: box.ws });
    const step = saved(await task.afterStep("execute_command node -e ..."));
    expect(paths(step)).toEqual(["b.txt", "made-by-shell.txt"]);
  });

  it("returns the last checkpoint when a step changed nothing", async () => {
    const task = await openTask(box, "task-1");
    const baseline = saved(await task.baseline());
    const step = saved(await task.afterStep("read_file"));
    expect(step).toMatchObject({ created: false, checkpoint: { id: baseline.checkpoint.id } });
    // A file touched without a change of content is no change either.
    box.write({ "b.txt": "bee\n" });
    expect(saved(await task.afterStep("touch")).created).toBe(false);
  });

  it("restores content byte for byte, whatever the workspace's .gitattributes say", async () => {
    const crlf = "line one\r\nline two\nlast\r\n";
    const binary = Buffer.from([0, 1, 2, 255, 13, 10, 0]);
    box.write({
      ".gitattributes": "* text=auto eol=crlf\n*.bin filter=custom\n",
      "mixed.txt": crlf,
      "x.bin": binary,
    });
    chmodSync(join(box.ws, "b.txt"), 0o755);
    symlinkSync("src/a.ts", join(box.ws, "link.ts"));
    const task = await openTask(box, "task-1");
    const baseline = saved(await task.baseline());
    box.write({ "mixed.txt": "changed\n", "x.bin": "text now" });
    chmodSync(join(box.ws, "b.txt"), 0o644);
    rmSync(join(box.ws, "link.ts"));
    symlinkSync("b.txt", join(box.ws, "link.ts"));
    saved(await task.afterStep("edit"));
    await task.restore(baseline.checkpoint.id);
    expect(readFileSync(join(box.ws, "mixed.txt"), "latin1")).toBe(crlf);
    expect(readFileSync(join(box.ws, "x.bin"))).toEqual(binary);
    expect(statSync(join(box.ws, "b.txt")).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(box.ws, "link.ts"), "utf8")).toBe("export const a = 1;\n");
  });

  it("leaves ignored and excluded files out, and alone on restore", async () => {
    box.write({
      ".gitignore": "secret-notes.txt\n",
      "secret-notes.txt": "mine\n",
      "node_modules/dep/index.js": "dep\n",
      ".env": "KEY=1\n",
      ".gitattributes": "*.psd filter=lfs diff=lfs merge=lfs -text\nassets/** filter=lfs\n",
      "art.psd": "fake lfs content",
      "assets/model.glb": "big",
      "logo.png": "png",
    });
    const task = await openTask(box, "task-1", { exclude: ["generated/"] });
    const baseline = saved(await task.baseline());
    box.write({
      "generated/out.ts": "x\n",
      "node_modules/dep/new.js": "y\n",
      "secret-notes.txt": "mine, edited\n",
    });
    for (const path of [".env", "art.psd", "assets/model.glb", "logo.png"]) rmSync(join(box.ws, path));
    // None of these was in the baseline, so none of it is a change.
    expect(saved(await task.afterStep("build")).created).toBe(false);
    box.write({ "src/a.ts": "changed\n" });
    saved(await task.afterStep("edit"));
    const restored = await task.restore(baseline.checkpoint.id);
    expect(restored).toMatchObject({
      status: "restored",
      changed: [{ path: "src/a.ts", status: "modified" }],
    });
    expect(box.read("secret-notes.txt")).toBe("mine, edited\n");
    expect(box.exists("node_modules/dep/new.js")).toBe(true);
    expect(box.exists("generated/out.ts")).toBe(true);
    expect(box.exists(".env")).toBe(false);
  });
});

describe("changes made outside the task", () => {
  it("are named instead of overwritten, unless forced; the forced restore can be undone", async () => {
    const task = await openTask(box, "task-1");
    const baseline = saved(await task.baseline());
    box.write({ "src/a.ts": "by the task\n" });
    saved(await task.afterStep("edit"));
    box.write({ "src/a.ts": "by the person\n", "docs/keep.md": "also by the person\n" });

    const refused = await task.restore(baseline.checkpoint.id);
    expect(refused).toMatchObject({ status: "conflicts", files: ["docs/keep.md", "src/a.ts"] });
    expect(box.read("src/a.ts")).toBe("by the person\n");

    const forced = await task.restore(baseline.checkpoint.id, { force: true });
    if (isUnavailable(forced) || forced.status !== "restored") throw new Error("not restored");
    expect(box.read("src/a.ts")).toBe("export const a = 1;\n");
    const undo = await task.get(forced.undoId!);
    expect(undo).toMatchObject({
      kind: "pre-restore",
      files: [{ path: "docs/keep.md" }, { path: "src/a.ts" }],
    });
    await task.restore(undo.id);
    expect(box.read("src/a.ts")).toBe("by the person\n");
  });

  it("are recorded by the baseline of a resumed task", async () => {
    const first = await openTask(box, "task-1");
    saved(await first.baseline());
    box.write({ "b.txt": "edited while the task was away\n" });
    const resumed = await openTask(box, "task-1");
    const baseline = saved(await resumed.baseline("resumed"));
    expect(baseline).toMatchObject({ created: true, checkpoint: { label: "resumed" } });
    expect(paths(baseline)).toEqual(["b.txt"]);
  });
});

describe("ids", () => {
  it("accepts unique prefixes and rejects unknown ids", async () => {
    const task = await openTask(box, "task-1");
    const baseline = saved(await task.baseline());
    expect((await task.get(baseline.checkpoint.id.slice(0, 6))).id).toBe(baseline.checkpoint.id);
    await expect(task.get("0000000")).rejects.toBeInstanceOf(CheckpointNotFoundError);
    await expect(task.get("abc")).rejects.toThrow(/No checkpoint abc/);
    await expect(task.restore("ffffffff")).rejects.toBeInstanceOf(CheckpointNotFoundError);
  });

  it("keeps task ids that are not ref names apart", async () => {
    const odd = await openTask(box, "task with spaces/and..dots");
    const plain = await openTask(box, "task-2");
    saved(await odd.baseline());
    saved(await plain.baseline());
    expect((await odd.list({ taskId: "task with spaces/and..dots" })).map((c) => c.taskId)).toEqual([
      "task with spaces/and..dots",
    ]);
    expect(await plain.list({ taskId: "task-2" })).toHaveLength(1);
  });
});

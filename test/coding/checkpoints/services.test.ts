/** The long-lived git processes of a watched store: answers, failures, and recovery after them. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShadowGit, type ShadowGit } from "../../../src/coding/checkpoints/git.js";
import { serializeTree, treeId } from "../../../src/coding/checkpoints/objects.js";
import { createGitServices, type GitServices } from "../../../src/coding/checkpoints/services.js";
import { CheckpointGitError } from "../../../src/coding/checkpoints/types.js";
import { createSandbox, type Sandbox } from "./support.js";

let box: Sandbox;
let git: ShadowGit;
let services: GitServices;
beforeEach(() => {
  box = createSandbox({ "a.txt": "alpha\n", "b.txt": "beta\n" });
  const storeDir = join(box.root, "store");
  mkdirSync(storeDir);
  git = createShadowGit(storeDir, box.ws, process.env);
  execFileSync("git", ["init", "-q", "--bare", git.gitDir]);
  services = createGitServices(git);
});
afterEach(async () => {
  services.close();
  await box.remove();
});

/** What the person's git (not the services) says about an object. */
const objectType = (oid: string) =>
  execFileSync("git", ["cat-file", "-t", oid], { env: { ...process.env, GIT_DIR: git.gitDir } })
    .toString()
    .trim();

describe("git services", () => {
  it("write blobs, trees and commits that git reads back, and read objects in rounds", async () => {
    const [a, b] = await services.hashFiles([join(box.ws, "a.txt"), join(box.ws, "b.txt")]);
    const link = await services.writeBlob(Buffer.from("a.txt"));
    const entries = new Map([
      ["a.txt", { mode: "100644", oid: a! }],
      ["b.txt", { mode: "100755", oid: b! }],
      ["link", { mode: "120000", oid: link }],
    ]);
    const oid = treeId(serializeTree(entries), a!.length);
    await services.writeTrees([{ oid, entries }]);
    expect(objectType(oid)).toBe("tree");
    const [blob, missing] = await services.readObjects([a!, "0".repeat(40)]);
    expect(blob).toMatchObject({ type: "blob" });
    expect(blob!.content.toString()).toBe("alpha\n");
    expect(missing).toBeUndefined();
    const commit = await services.writeCommit(
      `tree ${oid}\nauthor A <a@example.invalid> 1 +0000\ncommitter A <a@example.invalid> 1 +0000\n\nm\n`,
    );
    expect(objectType(commit)).toBe("commit");
    // A file written after the processes started is seen.
    writeFileSync(join(box.ws, "c.txt"), "gamma\n");
    const [c] = await services.hashFiles([join(box.ws, "c.txt")]);
    expect((await services.readObjects([c!]))[0]!.content.toString()).toBe("gamma\n");
  });

  it("refuse trees whose ids differ from the expected ones", async () => {
    const [a] = await services.hashFiles([join(box.ws, "a.txt")]);
    const entries = new Map([["a.txt", { mode: "100644", oid: a! }]]);
    await expect(services.writeTrees([{ oid: "1".repeat(40), entries }])).rejects.toThrow(/other trees/);
  });

  it("report a failed transaction and start again for the next one", async () => {
    const [a] = await services.hashFiles([join(box.ws, "a.txt")]);
    const oid = treeId(serializeTree(new Map([["a.txt", { mode: "100644", oid: a! }]])), a!.length);
    await services.writeTrees([{ oid, entries: new Map([["a.txt", { mode: "100644", oid: a! }]]) }]);
    const commit = await services.writeCommit(
      `tree ${oid}\nauthor A <a@example.invalid> 1 +0000\ncommitter A <a@example.invalid> 1 +0000\n\nm\n`,
    );
    await services.updateRefs(`create refs/test/one ${commit}\n`);
    const again = services.updateRefs(`create refs/test/one ${commit}\n`);
    await expect(again).rejects.toBeInstanceOf(CheckpointGitError);
    await expect(again).rejects.toThrow(/reference already exists/);
    await services.updateRefs(`create refs/test/two ${commit}\n`);
    const refs = execFileSync("git", ["for-each-ref", "--format=%(refname)", "refs/test"], {
      env: { ...process.env, GIT_DIR: git.gitDir },
    }).toString();
    expect(refs.trim().split("\n")).toEqual(["refs/test/one", "refs/test/two"]);
  });

  it("answer ignore questions, and read the rules again once told they changed", async () => {
    box.write({ ".gitignore": "*.log\n" });
    expect(await services.ignored(["x.log", "x.txt", "dir/y.log"])).toEqual(new Set(["x.log", "dir/y.log"]));
    box.write({ ".gitignore": "*.txt\n" });
    services.forgetIgnoreRules();
    expect(await services.ignored(["x.log", "x.txt"])).toEqual(new Set(["x.txt"]));
  });
});

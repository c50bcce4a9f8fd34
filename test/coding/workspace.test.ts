import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace, PathOutsideWorkspaceError } from "../../src/coding/workspace.js";
import { createTempWorkspace, type TempWorkspace } from "./temp-workspace.js";

describe("createWorkspace", () => {
  let temp: TempWorkspace;
  let outside: string;

  beforeEach(async () => {
    temp = await createTempWorkspace({ "src/a.ts": "a" });
    outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "bowline-outside-")));
    await fs.writeFile(path.join(outside, "secret.txt"), "secret");
  });

  afterEach(async () => {
    await temp.remove();
    await fs.rm(outside, { recursive: true, force: true });
  });

  it("resolves relative paths, the root and absolute paths inside the root", () => {
    const { workspace, root } = temp;
    expect(workspace.resolve("src/a.ts")).toBe(path.join(root, "src/a.ts"));
    expect(workspace.resolve(".")).toBe(root);
    expect(workspace.resolve(path.join(root, "src/a.ts"))).toBe(path.join(root, "src/a.ts"));
    expect(workspace.resolve("src/../src/./a.ts")).toBe(path.join(root, "src/a.ts"));
  });

  it("resolves files that do not exist yet", () => {
    expect(temp.workspace.resolve("new/dir/file.ts")).toBe(path.join(temp.root, "new/dir/file.ts"));
  });

  it("realpaths the root", async () => {
    const link = path.join(outside, "link-to-root");
    await fs.symlink(temp.root, link);
    const workspace = createWorkspace(link);
    expect(workspace.root).toBe(temp.root);
    // An absolute path through the unresolved root is still inside.
    expect(workspace.resolve(path.join(link, "src/a.ts"))).toBe(path.join(temp.root, "src/a.ts"));
  });

  it("refuses .. escapes", () => {
    expect(() => temp.workspace.resolve("../x")).toThrow(PathOutsideWorkspaceError);
    expect(() => temp.workspace.resolve("src/../../x")).toThrow(PathOutsideWorkspaceError);
  });

  it("refuses absolute paths outside the root with an actionable message", () => {
    let error: unknown;
    try {
      temp.workspace.resolve("/etc/passwd");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PathOutsideWorkspaceError);
    const { code, message } = error as PathOutsideWorkspaceError;
    expect(code).toBe("path_outside_workspace");
    expect(message).toContain("/etc/passwd");
    expect(message).toContain(temp.root);
    expect(message).toMatch(/relative to the workspace/);
  });

  it("does not treat a sibling directory sharing the root's prefix as inside", () => {
    expect(() => temp.workspace.resolve(`${temp.root}-other/x`)).toThrow(PathOutsideWorkspaceError);
  });

  it("allows names that merely start with two dots", () => {
    expect(temp.workspace.resolve("..foo")).toBe(path.join(temp.root, "..foo"));
  });

  it("refuses a symlink pointing outside, and says where it leads", async () => {
    await fs.symlink(path.join(outside, "secret.txt"), path.join(temp.root, "leak"));
    expect(() => temp.workspace.resolve("leak")).toThrow(/resolves to .*secret\.txt/);
  });

  it("refuses a not-yet-existing file under a symlinked directory that leads outside", async () => {
    await fs.symlink(outside, path.join(temp.root, "out"));
    expect(() => temp.workspace.resolve("out/new/file.ts")).toThrow(PathOutsideWorkspaceError);
  });

  it("refuses a dangling symlink whose target would be created outside", async () => {
    await fs.symlink(path.join(outside, "not-yet.txt"), path.join(temp.root, "dangling"));
    expect(() => temp.workspace.resolve("dangling")).toThrow(PathOutsideWorkspaceError);
  });

  it("allows symlinks that stay inside, resolving them to the real path", async () => {
    await fs.symlink(path.join(temp.root, "src"), path.join(temp.root, "alias"));
    expect(temp.workspace.resolve("alias/a.ts")).toBe(path.join(temp.root, "src/a.ts"));
  });

  it("shows paths relative to the root", () => {
    const { workspace, root } = temp;
    expect(workspace.relative(path.join(root, "src/a.ts"))).toBe("src/a.ts");
    expect(workspace.relative(root)).toBe(".");
    expect(workspace.relative("/etc/passwd")).toBe("/etc/passwd");
  });
});

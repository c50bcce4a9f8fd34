import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceChangesSince } from "../../../src/coding/session/workspace-changes.js";

let root: string;
const SINCE = Date.parse("2025-06-01T12:00:00Z");
const before = new Date(SINCE - 3600_000);
const after = new Date(SINCE + 3600_000);

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "bowline-changes-")));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes files with a modification time. */
function write(files: Record<string, string>, time: Date) {
  for (const [name, content] of Object.entries(files)) {
    const abs = join(root, name);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    utimesSync(abs, time, time);
  }
}

const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: root,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });

describe("workspace changes since a time", () => {
  it("in a plain folder: the files modified since then, skipping dependency and build folders", async () => {
    write({ "old.txt": "x", "src/old.ts": "x" }, before);
    write(
      { "src/new.ts": "x", "notes.md": "x", "node_modules/pkg/index.js": "x", "dist/out.js": "x" },
      after,
    );
    const text = await workspaceChangesSince(root, SINCE);
    expect(text).toMatch(/^Workspace changes since 2025-06-01T12:00:00.000Z:\n/);
    expect(text).toMatch(
      /Files modified since then \(2\): (notes\.md, src\/new\.ts|src\/new\.ts, notes\.md)\n/,
    );
    expect(text).toContain("(Not a git repository; 4 files checked.)");
    expect(text).not.toContain("node_modules");
    expect(text).not.toContain("old");
  });

  it("in a plain folder with nothing new, and lists at most 20 names", async () => {
    write({ "a.txt": "x" }, before);
    expect(await workspaceChangesSince(root, SINCE)).toContain("No file was modified since then.");
    write(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}.txt`, "x"])), after);
    const text = await workspaceChangesSince(root, SINCE);
    expect(text).toContain("Files modified since then (25): ");
    expect(text).toContain(", ... and 5 more");
  });

  it("in a git repository: git status, which of its files changed since then, and new commits", async () => {
    git("init", "-q");
    write({ "a.ts": "1", "b.ts": "1" }, before);
    git("add", ".");
    git("commit", "-q", "-m", "first", "--date", before.toISOString());
    write({ "b.ts": "22" }, before); // dirty, but from before
    write({ "a.ts": "2", "new.md": "x" }, after);
    const text = await workspaceChangesSince(root, SINCE);
    expect(text).toContain("Files modified since then (2): ");
    expect(text).toMatch(/\(2\): (a\.ts, new\.md|new\.md, a\.ts)/);
    expect(text).toContain("git status --porcelain (3):\n");
    expect(text).toContain("   M a.ts");
    expect(text).toContain("   M b.ts");
    expect(text).toContain("  ?? new.md");
    // The commit was made now, after SINCE (the committer date counts).
    expect(text).toMatch(/Commits since then \(1\):\n {2}[0-9a-f]+ first/);
  });

  it("in a clean repository without commits since", async () => {
    git("init", "-q");
    write({ "a.ts": "1" }, before);
    git("add", ".");
    git("commit", "-q", "-m", "first");
    const text = await workspaceChangesSince(root, Date.now() + 60_000);
    expect(text).toContain("No file was modified since then.\ngit status: clean.");
    expect(text).not.toContain("Commits");
  });

  it("in a subfolder of a repository: only its changes, with paths relative to it", async () => {
    git("init", "-q");
    write({ "pkg/a.ts": "1", "other.ts": "1" }, before);
    git("add", ".");
    git("commit", "-q", "-m", "first");
    write({ "pkg/a.ts": "22", "other.ts": "22" }, after);
    const text = await workspaceChangesSince(join(root, "pkg"), SINCE);
    expect(text).toContain("Files modified since then (1): a.ts\n");
    expect(text).toContain("git status --porcelain (1):\n   M pkg/a.ts");
    expect(text).not.toContain("other.ts");
  });

  it("never throws: a missing workspace gives unknown changes", async () => {
    const text = await workspaceChangesSince(join(root, "gone"), SINCE);
    expect(text).toMatch(/are unknown \(.+\)\.$/);
  });
});

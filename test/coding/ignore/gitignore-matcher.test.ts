import { describe, expect, it } from "vitest";
import { compileGitignore } from "../../../src/coding/ignore/gitignore-matcher.js";

const matcher = (...lines: string[]) => compileGitignore(lines);

describe("compileGitignore", () => {
  it("matches a name without a slash at any depth", () => {
    const m = matcher("*.log", "secret.txt");
    expect(m.isIgnored("debug.log", false)).toBe(true);
    expect(m.isIgnored("a/b/debug.log", false)).toBe(true);
    expect(m.isIgnored("a/secret.txt", false)).toBe(true);
    expect(m.isIgnored("a/secret.txt.bak", false)).toBe(false);
    expect(m.isIgnored("log", false)).toBe(false);
  });

  it("anchors patterns with a leading or inner slash", () => {
    const m = matcher("/build", "docs/*.md");
    expect(m.isIgnored("build", true)).toBe(true);
    expect(m.isIgnored("src/build", true)).toBe(false);
    expect(m.isIgnored("docs/a.md", false)).toBe(true);
    expect(m.isIgnored("docs/sub/a.md", false)).toBe(false);
    expect(m.isIgnored("x/docs/a.md", false)).toBe(false);
  });

  it("applies directory-only patterns to directories and everything below them", () => {
    const m = matcher("cache/");
    expect(m.isIgnored("cache", true)).toBe(true);
    expect(m.isIgnored("cache", false)).toBe(false);
    expect(m.isIgnored("a/cache/x/y.txt", false)).toBe(true);
  });

  it("re-includes with !, last rule winning", () => {
    const m = matcher("*.env", "!example.env", "config/*", "!config/public.json");
    expect(m.isIgnored("prod.env", false)).toBe(true);
    expect(m.isIgnored("example.env", false)).toBe(false);
    expect(m.isIgnored("config/private.json", false)).toBe(true);
    expect(m.isIgnored("config/public.json", false)).toBe(false);
    expect(matcher("!a.txt", "*.txt").isIgnored("a.txt", false)).toBe(true);
  });

  it("cannot re-include a file inside an ignored directory", () => {
    const m = matcher("secrets/", "!secrets/ok.txt");
    expect(m.isIgnored("secrets/ok.txt", false)).toBe(true);
  });

  it("supports **, ?, classes, comments and escapes", () => {
    const m = matcher(
      "# a comment",
      "",
      "**/tmp/**",
      "a/**/z.txt",
      "file?.c",
      "[abc]x.bin",
      "[!0-9]y.dat",
      "\\#hash",
      "\\!bang",
      "trailing   ",
    );
    expect(m.isIgnored("tmp/x", false)).toBe(true);
    expect(m.isIgnored("deep/tmp/y/z", false)).toBe(true);
    expect(m.isIgnored("a/z.txt", false)).toBe(true);
    expect(m.isIgnored("a/b/c/z.txt", false)).toBe(true);
    expect(m.isIgnored("file1.c", false)).toBe(true);
    expect(m.isIgnored("file10.c", false)).toBe(false);
    expect(m.isIgnored("bx.bin", false)).toBe(true);
    expect(m.isIgnored("dx.bin", false)).toBe(false);
    expect(m.isIgnored("ay.dat", false)).toBe(true);
    expect(m.isIgnored("1y.dat", false)).toBe(false);
    expect(m.isIgnored("#hash", false)).toBe(true);
    expect(m.isIgnored("!bang", false)).toBe(true);
    expect(m.isIgnored("trailing", false)).toBe(true);
    expect(m.isIgnored("a comment", false)).toBe(false);
  });

  it("expands braces only when asked (ripgrep globs)", () => {
    expect(compileGitignore(["*.{ts,js}"], { braces: true }).isIgnored("x/a.js", false)).toBe(true);
    expect(compileGitignore(["*.{ts,js}"]).isIgnored("a.js", false)).toBe(false);
  });
});

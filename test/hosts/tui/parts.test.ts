/** The TUI's plain parts: diffs, command splitting, rules, markdown, highlighting, the status line. */
import { describe, expect, it } from "vitest";
import { splitCommand } from "../../../src/hosts/tui/approval-preview.js";
import { unifiedDiff } from "../../../src/hosts/tui/diff.js";
import * as edit from "../../../src/hosts/tui/editor.js";
import { rankPaths } from "../../../src/hosts/tui/file-index.js";
import { highlightLine } from "../../../src/hosts/tui/highlight.js";
import { classifyMarkdown } from "../../../src/hosts/tui/markdown.js";
import { suggestRule } from "../../../src/hosts/tui/remember.js";
import { fitParts, statusParts } from "../../../src/hosts/tui/status-line.js";
import { themeFor } from "../../../src/hosts/tui/theme.js";

describe("unifiedDiff", () => {
  it("writes hunks with context and line numbers", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const after = before.replace("line 3", "line three").replace("line 18", "line eighteen");
    const text = unifiedDiff(before, after, "f.txt").map((line) => line.text);
    expect(text.slice(0, 2)).toEqual(["--- a/f.txt", "+++ b/f.txt"]);
    expect(text).toContain("@@ -1,6 +1,6 @@");
    expect(text).toContain("@@ -15,6 +15,6 @@");
    expect(text).toContain("-line 3");
    expect(text).toContain("+line eighteen");
    expect(text).not.toContain(" line 10");
  });

  it("is empty when nothing changed, and a new file is all additions", () => {
    expect(unifiedDiff("a\n", "a\n", "x")).toEqual([]);
    const created = unifiedDiff("", "a\nb\n", "x");
    expect(created.map((l) => l.text)).toEqual(["--- /dev/null", "+++ b/x", "@@ -1,0 +1,2 @@", "+a", "+b"]);
  });
});

describe("commands and rules", () => {
  it("splits a shell line into its simple commands, quotes respected", () => {
    expect(splitCommand(`git add . && git commit -m "a && b" | cat; echo 'x|y'`)).toEqual([
      "git add .",
      'git commit -m "a && b"',
      "cat",
      "echo 'x|y'",
    ]);
  });

  it("suggests a rule from the command's program and sub-command, or the file's folder", () => {
    expect(suggestRule("execute_command", { command: "npm test -- --watch" })).toEqual({
      tool: "execute_command",
      pattern: "npm test",
    });
    expect(suggestRule("execute_command", { command: "ls -la" })).toEqual({
      tool: "execute_command",
      pattern: "ls",
    });
    expect(suggestRule("write_to_file", { path: "src/a/b.ts" })).toEqual({
      tool: "write_to_file",
      pattern: "src/a/**",
    });
    expect(suggestRule("write_to_file", { path: "README.md" })).toEqual({
      tool: "write_to_file",
      pattern: "README.md",
    });
  });
});

describe("markdown and code", () => {
  it("classifies fences, headings, items and quotes", () => {
    const kinds = classifyMarkdown("# Title\n- item\n> quote\n```py\nx = 1  # one\n```\ntext").map(
      (l) => l.kind,
    );
    expect(kinds).toEqual(["heading", "item", "quote", "fence", "code", "fence", "text"]);
  });

  it("highlights keywords, strings, numbers and the trailing comment", () => {
    const tokens = highlightLine('const url = "http://x"; // 42 here', "ts");
    expect(tokens.filter((t) => t.kind !== "plain").map((t) => [t.kind, t.text])).toEqual([
      ["keyword", "const"],
      ["string", '"http://x"'],
      ["comment", "// 42 here"],
    ]);
    expect(highlightLine("x = 1  # one", "py").at(-1)).toEqual({ kind: "comment", text: "# one" });
  });
});

describe("status line and theme", () => {
  const usage = {
    inputTokens: 1000,
    outputTokens: 10,
    cacheReadTokens: 9000,
    cacheWriteTokens: 0,
    costUsd: 0.5,
  };
  const state = {
    model: "a-rather-long-model-name-2025",
    mode: "act" as const,
    usage,
    lastRequest: usage,
    status: "idle" as const,
    queued: [],
    contextWindow: 200_000,
    checkpoints: 3,
  };

  it("drops the parts that do not fit, most useful first", () => {
    const parts = statusParts(state);
    expect(parts).toEqual([
      "ctx 10k/200k",
      "a-rather-long-model-name-2025",
      "$0.5000",
      "cache 90%",
      "3 checkpoints",
      "10k tok",
    ]);
    expect(fitParts(parts, 40)).toEqual(["ctx 10k/200k", "$0.5000", "cache 90%"]);
  });

  it("has no colours with NO_COLOR", () => {
    const plain = themeFor({ NO_COLOR: "1" });
    expect(plain.color).toBe(false);
    expect(plain.added).toBeUndefined();
    expect(themeFor({}).added).toBe("green");
  });
});

describe("editor and file ranking", () => {
  it("moves between lines keeping the column", () => {
    const draft = { ...edit.draftOf("abcdef\nxy\n123456"), cursor: 4 };
    expect(edit.down(draft)!.cursor).toBe(9);
    expect(edit.down(edit.down(draft)!)!.cursor).toBe(12);
    expect(edit.up(draft)).toBeUndefined();
  });

  it("ranks file names that start with the fragment first", () => {
    expect(
      rankPaths(["docs/parser.md", "src/parser/", "src/old-parser.ts", "parser.ts"], "parser", 3),
    ).toEqual(["parser.ts", "src/parser/", "docs/parser.md"]);
  });
});

import { describe, expect, it } from "vitest";
import { applySearchReplace, parseSearchReplace } from "../../src/coding/edit/search-replace.js";

describe("parseSearchReplace", () => {
  it("parses blocks with either marker style and ignores text between blocks", () => {
    const parsed = parseSearchReplace(
      "Here is the change:\n```\n------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n```\n<<<<<<< SEARCH\nc\n=======\n>>>>>>> REPLACE\n",
    );
    expect(parsed).toEqual({
      ok: true,
      blocks: [
        { search: ["a"], replace: ["b"] },
        { search: ["c"], replace: [] },
      ],
    });
  });

  it("accepts CRLF diffs and keeps ======= lines inside REPLACE as text", () => {
    const parsed = parseSearchReplace(
      "------- SEARCH\r\nx\r\n=======\r\ny\r\n=======\r\n+++++++ REPLACE\r\n",
    );
    expect(parsed).toEqual({ ok: true, blocks: [{ search: ["x"], replace: ["y", "======="] }] });
  });

  it.each([
    ["no markers", "just text", /no SEARCH\/REPLACE block/],
    ["missing separator", "------- SEARCH\na\n+++++++ REPLACE", /block 1 .*before its "=======" separator/],
    ["unclosed block", "------- SEARCH\na\n=======\nb", /block 1 is not closed/],
    ["separator first", "=======\nb\n+++++++ REPLACE", /without a "------- SEARCH"/],
    [
      "second block not closed",
      "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nd\n------- SEARCH",
      /block 2 has no "\+\+\+\+\+\+\+ REPLACE"/,
    ],
  ])("rejects a malformed diff: %s", (_name, diff, pattern) => {
    const parsed = parseSearchReplace(diff);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(pattern);
      expect(parsed.error).toContain("------- SEARCH\nexact lines to find");
    }
  });
});

describe("applySearchReplace", () => {
  it("inserts into an empty file with an empty SEARCH, but refuses that on a non-empty file", () => {
    expect(applySearchReplace("", [{ search: [], replace: ["hello"] }]).content).toBe("hello\n");
    const refused = applySearchReplace("x\n", [{ search: [], replace: ["hello"] }]);
    expect(refused.applied).toEqual([]);
    expect(refused.failed[0]?.reason).toMatch(/SEARCH section is empty/);
  });

  it("reports the line each block was applied at", () => {
    const result = applySearchReplace("a\nb\nc\nd\n", [
      { search: ["c"], replace: ["C"] },
      { search: ["a"], replace: ["A", "A2"] },
    ]);
    expect(result.content).toBe("A\nA2\nb\nC\nd\n");
    expect(result.applied).toEqual([
      { block: 1, line: 3 },
      { block: 2, line: 1 },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { applyEditBlocks } from "../../../src/coding/edit/apply-blocks.js";

const lines = (...l: string[]) => `${l.join("\n")}\n`;
const FILE = lines(
  "class Shop {",
  "  total(items) {",
  "    let sum = 0;",
  "    for (const item of items) sum += item.price;",
  "    return sum;",
  "  }",
  "",
  "  count(items) {",
  "    return items.length;",
  "  }",
  "}",
);

describe("applyEditBlocks stages", () => {
  it("exact", () => {
    const r = applyEditBlocks(FILE, [
      { search: ["    return items.length;"], replace: ["    return items.size;"] },
    ]);
    expect(r.applied).toEqual([{ block: 1, line: 9, stage: "exact" }]);
    expect(r.content).toContain("    return items.size;\n");
  });

  it("whitespace: trailing spaces in SEARCH", () => {
    const r = applyEditBlocks(FILE, [{ search: ["    let sum = 0;  "], replace: ["    let sum = 1;"] }]);
    expect(r.applied[0]?.stage).toBe("whitespace");
    expect(r.content).toContain("\n    let sum = 1;\n");
  });

  it("indentation: shifted SEARCH, REPLACE re-indented by the same offset, kept lines from the file", () => {
    const r = applyEditBlocks(FILE, [
      {
        search: ["count(items) {", "  return items.length;", "}"],
        replace: ["count(items) {", "  // number of items", "  return items.length;", "}"],
      },
    ]);
    expect(r.applied[0]?.stage).toBe("indentation");
    expect(r.content).toContain("  count(items) {\n    // number of items\n    return items.length;\n  }\n");
  });

  it("indentation: tabs in the file, spaces in SEARCH", () => {
    const file = "function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n";
    const r = applyEditBlocks(file, [
      {
        search: ["    if (x) {", "        return 1;", "    }"],
        replace: ["    if (x) {", "        return 2;", "    }"],
      },
    ]);
    expect(r.applied[0]?.stage).toBe("indentation");
    expect(r.content).toBe("function f() {\n\tif (x) {\n\t\treturn 2;\n\t}\n}\n");
  });

  it("line-trimmed: irregular indentation", () => {
    const r = applyEditBlocks(FILE, [
      {
        search: ["let sum = 0;", "      for (const item of items) sum += item.price;"],
        replace: ["let sum = 0;", "      sum = items.reduce((a, i) => a + i.price, 0);"],
      },
    ]);
    expect(r.applied[0]?.stage).toBe("line-trimmed");
    expect(r.content).toContain("    let sum = 0;\n    sum = items.reduce");
  });

  it("anchors: first and last lines match, one middle line differs; the file's middle is kept", () => {
    const r = applyEditBlocks(FILE, [
      {
        search: [
          "  total(items) {",
          "    let total = 0;",
          "    for (const item of items) sum += item.price;",
          "    return sum;",
        ],
        replace: [
          "  total(items) {",
          "    let total = 0;",
          "    for (const item of items) sum += item.price;",
          "    return Math.round(sum);",
        ],
      },
    ]);
    expect(r.applied[0]?.stage).toBe("anchors");
    expect(r.content).toContain(
      "    let sum = 0;\n    for (const item of items) sum += item.price;\n    return Math.round(sum);",
    );
    expect(r.content).not.toContain("let total");
  });

  it("fuzzy: one clearly best region", () => {
    const file = lines(
      "import fs from 'node:fs';",
      "const config = loadConfiguration(process.argv);",
      "const server = startServer(config.port);",
      "server.on('close', cleanup);",
    );
    const search = [
      "const config = loadConfiguraton(process.argv);",
      "const server = startServer(config.port)",
    ];
    const r = applyEditBlocks(file, [
      {
        search,
        replace: ["const config = loadConfiguraton(process.argv);", "const server = startServer(8080);"],
      },
    ]);
    expect(r.applied[0]).toMatchObject({ line: 2, stage: "fuzzy" });
    expect(r.content).toContain("loadConfiguration(process.argv);\nconst server = startServer(8080);");
  });

  it("fuzzy: refused when the runner-up is close, and nothing is changed", () => {
    const file = lines("alpha_one(1);", "beta_two(2);", "x();", "alpha_one(3);", "beta_two(4);");
    const r = applyEditBlocks(file, [{ search: ["alpha_one(5);", "beta_two(6);"], replace: ["gone();"] }]);
    expect(r.applied).toEqual([]);
    expect(r.content).toBe(file);
    expect(r.failed[0]?.reason).toMatch(/matches 2 places \(approximately\) \(lines 1, 4\)/);
  });

  it("never applies a loose match at a wrong place when the SEARCH is not in the file", () => {
    const r = applyEditBlocks(FILE, [
      { search: ["  checkout(cart) {", "    pay(cart);", "  }"], replace: ["x"] },
    ]);
    expect(r.applied).toEqual([]);
    expect(r.content).toBe(FILE);
  });
});

describe("applyEditBlocks blocks", () => {
  it("applies blocks given out of order", () => {
    const r = applyEditBlocks(FILE, [
      { search: ["    return items.length;"], replace: ["    return 0;"] },
      { search: ["    let sum = 0;"], replace: ["    let sum = 10;"] },
    ]);
    expect(r.applied.map((a) => a.line)).toEqual([9, 3]);
    expect(r.content).toContain("let sum = 10;");
    expect(r.content).toContain("return 0;");
  });

  it("refuses an ambiguous SEARCH and names the lines", () => {
    const r = applyEditBlocks(FILE, [{ search: ["  }"], replace: ["  };"] }]);
    expect(r.failed[0]?.reason).toMatch(/Block 1: .*matches 2 places \(lines 6, 10\)/);
    expect(r.content).toBe(FILE);
  });

  it("reports a missing SEARCH with the closest lines, numbered, and says to re-read", () => {
    const r = applyEditBlocks(FILE, [
      { search: ["a"], replace: ["b"] },
      { search: ["  count(things) {", "    return things.length;", "  }"], replace: ["x"] },
    ]);
    const reason = r.failed[1]?.reason ?? "";
    expect(r.failed.map((f) => f.block)).toEqual([1, 2]);
    expect(reason).toMatch(/Block 2: .*not found/);
    expect(reason).toContain("read_file");
    expect(reason).toMatch(/closest lines.*\n\s*8 \| {3}count\(items\) \{/);
  });
});

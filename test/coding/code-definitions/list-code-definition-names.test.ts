import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIgnoreRules } from "../../../src/coding/ignore/ignore-rules.js";
import { createListCodeDefinitionNamesTool } from "../../../src/coding/tools/list-code-definition-names.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "../temp-workspace.js";
import { createTestToolContext } from "../tool-context.js";

const SOURCES: Record<string, string> = {
  "src/shapes.ts": [
    "import x from 'y';",
    "export interface Shape {",
    "  area(): number;",
    "}",
    "export type Id = string;",
    "export enum Kind { A, B }",
    "export class Circle implements Shape {",
    "  area() {",
    "    return 1;",
    "  }",
    "}",
    "export function make(): Shape {",
    "  return new Circle();",
    "}",
    "const helper = (n: number) => n * 2;",
    "",
  ].join("\n"),
  "src/tool.py":
    "import os\n\nclass Tool:\n    def run(self):\n        pass\n\ndef main():\n    Tool().run()\n",
  "src/main.go":
    "package main\n\ntype Server struct {\n\tport int\n}\n\nfunc (s *Server) Start() error {\n\treturn nil\n}\n\nfunc main() {}\n",
  "src/lib.rs":
    "pub struct Point { x: i32 }\n\nimpl Point {\n    pub fn new() -> Self { Point { x: 0 } }\n}\n\npub trait Draw {\n    fn draw(&self);\n}\n\nenum Color { Red }\n",
  "src/App.java":
    "package app;\n\npublic class App {\n    public App() {}\n\n    public static void main(String[] args) {\n    }\n}\n\ninterface Runner { void run(); }\n",
  "src/notes.md": "# Not code\n",
  "src/empty.ts": "const x = 1;\n",
};

describe("list_code_definition_names", () => {
  let temp: TempWorkspace;
  const run = (input: { path: string }, extra: Record<string, unknown> = {}) =>
    createListCodeDefinitionNamesTool({ workspace: temp.workspace, ...extra }).execute(
      input,
      createTestToolContext().ctx,
    );

  beforeEach(async () => {
    temp = await createTempWorkspace(SOURCES);
  });
  afterEach(() => temp.remove());

  it("lists definitions per file, Cline-style, skipping files without any", async () => {
    const result = await run({ path: "src" });
    expect(result.isError).toBeFalsy();
    const text = textOf(result.content);
    expect(text).toContain(
      [
        "src/shapes.ts",
        "|----",
        "│ 2 | export interface Shape {",
        "|----",
        "│ 5 | export type Id = string;",
        "|----",
        "│ 6 | export enum Kind { A, B }",
        "|----",
        "│ 7 | export class Circle implements Shape {",
        "|----",
        "│ 8 |   area() {",
        "|----",
        "│12 | export function make(): Shape {",
        "|----",
        "│15 | const helper = (n: number) => n * 2;",
        "|----",
      ].join("\n"),
    );
    expect(text).toContain(
      "src/tool.py\n|----\n│3 | class Tool:\n|----\n│4 |     def run(self):\n|----\n│7 | def main():\n|----",
    );
    expect(text).toContain(
      "src/main.go\n|----\n│ 3 | type Server struct {\n|----\n│ 7 | func (s *Server) Start() error {\n|----\n│11 | func main() {}\n|----",
    );
    expect(text).toMatch(
      /src\/lib\.rs\n\|----\n│ 1 \| pub struct Point[\s\S]*│ 3 \| impl Point \{[\s\S]*│ 4 \| {5}pub fn new[\s\S]*│ 7 \| pub trait Draw \{[\s\S]*│ 8 \| {5}fn draw[\s\S]*│11 \| enum Color/,
    );
    expect(text).toMatch(
      /src\/App\.java\n\|----\n│ 3 \| public class App \{[\s\S]*│ 4 \| {5}public App\(\) \{\}[\s\S]*│ 6 \| {5}public static void main[\s\S]*│10 \| interface Runner/,
    );
    expect(text).not.toContain("empty.ts");
    expect(text).not.toContain("notes.md");
    expect(result.details?.files.map((f) => f.path)).toEqual([
      "src/App.java",
      "src/lib.rs",
      "src/main.go",
      "src/shapes.ts",
      "src/tool.py",
    ]);
  });

  it("takes a single file", async () => {
    const result = await run({ path: "src/tool.py" });
    expect(textOf(result.content)).toBe(
      "src/tool.py\n|----\n│3 | class Tool:\n|----\n│4 |     def run(self):\n|----\n│7 | def main():\n|----",
    );
  });

  it("says clearly when a language has no grammar", async () => {
    await temp.write({ "src/App.kt": "class App\n" });
    const single = await run({ path: "src/App.kt" });
    expect(single.isError).toBe(true);
    expect(textOf(single.content)).toMatch(/^No tree-sitter grammar is available for Kotlin/);
    expect(textOf((await run({ path: "src" })).content)).toContain(
      "Skipped 1 Kotlin file: no grammar is available.",
    );
  });

  it("says when a grammar file is missing from the grammar folder", async () => {
    const grammarDir = path.join(temp.root, "grammars");
    await fs.mkdir(grammarDir);
    const result = await run({ path: "src/main.go" }, { grammarDir });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(
      /^No tree-sitter grammar for Go is installed \(tree-sitter-go\.wasm/,
    );
  });

  it("reports a directory with no source files", async () => {
    await temp.write({ "docs/a.md": "# a\n", "docs/sub/b.ts": "function b() {}\n" });
    const result = await run({ path: "docs" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toMatch(/^No source files found at the top level of docs/);
  });

  it("skips binary and huge files, and files blocked by the ignore file", async () => {
    await temp.write({
      "mix/bin.ts": Buffer.from("function a() {}\u0000"),
      "mix/huge.ts": `function big() {}\n${"// x\n".repeat(300_000)}`,
      "mix/secret.ts": "function secret() {}\n",
      "mix/ok.ts": "function ok() {}\n",
      ".bowlineignore": "mix/secret.ts\n",
    });
    const ignore = createIgnoreRules(temp.root);
    const text = textOf((await run({ path: "mix" }, { ignore })).content);
    expect(text).toBe("mix/ok.ts\n|----\n│1 | function ok() {}\n|----");
    const blocked = await run({ path: "mix/secret.ts" }, { ignore });
    expect(textOf(blocked.content)).toMatch(/^Access to mix\/secret\.ts is blocked by \.bowlineignore/);
  });

  it("finds definitions in the other shipped languages", async () => {
    const samples: Record<string, string> = {
      "x/a.js": "export function a() {}\nclass B { m() {} }\n",
      "x/c.tsx": "export const C = () => <div />;\ninterface P {}\n",
      "x/d.c": "struct S { int a; };\nint main(void) { return 0; }\n",
      "x/e.cpp": "namespace n {\nclass K { void f(); };\n}\n",
      "x/f.cs": "namespace N { public class F { public void M() {} } }\n",
      "x/g.rb": "module G\n  class H\n    def i; end\n  end\nend\n",
      "x/h.php": "<?php\nclass P { function q() {} }\nfunction r() {}\n",
      "x/i.sh": "greet() {\n  echo hi\n}\n",
    };
    await temp.write(samples);
    const result = await run({ path: "x" });
    const counts = Object.fromEntries((result.details?.files ?? []).map((f) => [f.path, f.definitions]));
    expect(counts).toEqual({
      "x/a.js": 2, // one line per definition line
      "x/c.tsx": 2,
      "x/d.c": 2,
      "x/e.cpp": 2,
      "x/f.cs": 1,
      "x/g.rb": 3,
      "x/h.php": 2,
      "x/i.sh": 1,
    });
  });

  it("is read-only and summarizes", () => {
    const tool = createListCodeDefinitionNamesTool({ workspace: temp.workspace });
    expect(tool.mutates).toBe(false);
    expect(tool.summarize({ path: "src" })).toBe("list_code_definition_names src");
  });
});

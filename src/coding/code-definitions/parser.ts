import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Language, Parser, Query } from "web-tree-sitter";
import type { LanguageSpec } from "./languages.js";

/** A grammar's wasm file is not installed. The message says which and what to do. */
export class GrammarMissingError extends Error {
  readonly code = "grammar_missing";
  constructor(
    readonly language: string,
    readonly wasmPath: string,
  ) {
    super(
      `No tree-sitter grammar for ${language} is installed (${path.basename(wasmPath)} was not found in @vscode/tree-sitter-wasm).`,
    );
    this.name = "GrammarMissingError";
  }
}

/** A language ready to parse: its parser and compiled definition query. */
export interface LoadedLanguage {
  parser: Parser;
  query: Query;
}

type TreeSitter = typeof import("web-tree-sitter");

const require = createRequire(import.meta.url);
let runtime: Promise<TreeSitter> | undefined;
const languages = new Map<string, Promise<LoadedLanguage>>();

/** Loads web-tree-sitter once, on first use. */
function loadRuntime(): Promise<TreeSitter> {
  runtime ??= (async () => {
    const treeSitter = await import("web-tree-sitter");
    const wasm = require.resolve("web-tree-sitter/web-tree-sitter.wasm");
    await treeSitter.Parser.init({ locateFile: () => wasm });
    return treeSitter;
  })();
  runtime.catch(() => {
    runtime = undefined; // Let a later call try again.
  });
  return runtime;
}

/** Folder holding the grammar wasm files; `grammarDir` overrides it (for tests). */
export function defaultGrammarDirectory(): string {
  return path.join(path.dirname(require.resolve("@vscode/tree-sitter-wasm/package.json")), "wasm");
}

const grammars = new Map<string, Promise<Language>>();

/**
 * The grammar of `spec`, loaded on first use and cached per grammar file (the shell parser
 * needs only this; code definitions also compile a query). Rejects with `GrammarMissingError`
 * when the grammar's wasm file is absent.
 */
export function loadGrammar(spec: LanguageSpec, grammarDir = defaultGrammarDirectory()): Promise<Language> {
  const wasmPath = path.join(grammarDir, spec.grammar);
  let loaded = grammars.get(wasmPath);
  if (loaded === undefined) {
    loaded = (async () => {
      const { Language: LanguageClass } = await loadRuntime();
      let bytes: Uint8Array;
      try {
        bytes = await fs.readFile(wasmPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT")
          throw new GrammarMissingError(spec.name, wasmPath);
        throw error;
      }
      return LanguageClass.load(bytes);
    })();
    grammars.set(wasmPath, loaded);
    loaded.catch(() => grammars.delete(wasmPath));
  }
  return loaded;
}

/**
 * The parser and query for `spec`, loaded on first use and cached per grammar file.
 * Rejects with `GrammarMissingError` when the grammar's wasm file is absent.
 */
export function loadLanguage(
  spec: LanguageSpec,
  grammarDir = defaultGrammarDirectory(),
): Promise<LoadedLanguage> {
  const key = path.join(grammarDir, spec.grammar); // One query per grammar file (C and C++ share one).
  let loaded = languages.get(key);
  if (loaded === undefined) {
    loaded = (async () => {
      const language = await loadGrammar(spec, grammarDir);
      const { Parser: ParserClass } = await loadRuntime();
      const parser = new ParserClass();
      parser.setLanguage(language);
      return { parser, query: await compileQuery(language, spec.patterns) };
    })();
    languages.set(key, loaded);
    loaded.catch(() => languages.delete(key));
  }
  return loaded;
}

/** Compiles the patterns as one query; a pattern the grammar does not know is a bug, so it throws. */
async function compileQuery(language: Language, patterns: string[]): Promise<Query> {
  const { Query: QueryClass } = await loadRuntime();
  return new QueryClass(language, patterns.join("\n"));
}

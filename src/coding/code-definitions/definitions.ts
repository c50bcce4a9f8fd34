import path from "node:path";
import { LANGUAGES_BY_EXTENSION, LANGUAGES_WITHOUT_GRAMMAR, type LanguageSpec } from "./languages.js";
import { loadLanguage } from "./parser.js";

/** One definition: its 1-based line and the text of that line. */
export interface DefinitionLine {
  line: number;
  text: string;
}

/** Longer definition lines are cut to this many characters. */
const MAX_LINE_CHARS = 200;

/** The language spec for a file name, if a grammar is available. */
export function languageOf(fileName: string): LanguageSpec | undefined {
  return LANGUAGES_BY_EXTENSION.get(path.extname(fileName).toLowerCase());
}

/** For a recognised source file without a grammar here: its language's name. */
export function languageWithoutGrammar(fileName: string): string | undefined {
  return LANGUAGES_WITHOUT_GRAMMAR.get(path.extname(fileName).toLowerCase());
}

/**
 * The definitions (classes, functions, methods, interfaces, types, enums) in `source`, one per
 * line, in line order. Rejects with `GrammarMissingError` when the grammar is not installed.
 */
export async function findDefinitions(
  source: string,
  spec: LanguageSpec,
  grammarDir?: string,
): Promise<DefinitionLine[]> {
  const { parser, query } = await loadLanguage(spec, grammarDir);
  const tree = parser.parse(source);
  if (tree === null) return [];
  try {
    const rows = new Set<number>();
    for (const capture of query.captures(tree.rootNode)) {
      if (capture.name === "definition") rows.add(capture.node.startPosition.row);
    }
    const lines = source.split("\n");
    return [...rows]
      .sort((a, b) => a - b)
      .map((row) => ({ line: row + 1, text: cutLine((lines[row] ?? "").replace(/\s+$/, "")) }));
  } finally {
    tree.delete();
  }
}

function cutLine(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
}

/** Renders a file's definitions as Cline does: `|----` separators and `│`-prefixed lines. */
export function renderDefinitions(relPath: string, definitions: DefinitionLine[]): string {
  const width = String(definitions.at(-1)?.line ?? 0).length;
  const body = definitions.map((d) => `│${String(d.line).padStart(width)} | ${d.text}`);
  return [relPath, "|----", ...body.flatMap((line) => [line, "|----"])].join("\n");
}

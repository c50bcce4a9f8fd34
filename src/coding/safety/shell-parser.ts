import type { Node, Parser } from "web-tree-sitter";
import { LANGUAGES_BY_EXTENSION } from "../code-definitions/languages.js";
import { loadGrammar } from "../code-definitions/parser.js";

/** A bash parser, ready to use synchronously. */
export interface ShellParser {
  /**
   * Parses `text` and calls `use` with the tree's root (`program`); the tree is freed after.
   * Undefined when the parser gave up.
   */
  parse<T>(text: string, use: (root: Node) => T): T | undefined;
}

let loading: Promise<ShellParser> | undefined;
let loaded: ShellParser | undefined;

/**
 * Loads tree-sitter-bash once (the wasm runtime and grammar are shared with code definitions,
 * which own their one-time initialisation; their definitions query is not compiled). Later
 * calls return the same parser. Rejects when the grammar cannot be loaded; a later call tries
 * again. Sessions start loading it once their first model request is on its way, and the
 * command tool waits for it before its calls are judged (`ToolHandler.prepare`).
 */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= (async () => {
    const spec = LANGUAGES_BY_EXTENSION.get(".sh");
    if (!spec) throw new Error("The bash grammar is not registered with the code-definition languages.");
    const language = await loadGrammar(spec);
    const { Parser: ParserClass } = await import("web-tree-sitter");
    // A parser of our own: code definitions have theirs.
    const parser: Parser = new ParserClass();
    parser.setLanguage(language);
    loaded = {
      parse(text, use) {
        const tree = parser.parse(text);
        if (!tree) return undefined;
        try {
          return use(tree.rootNode);
        } finally {
          tree.delete();
        }
      },
    };
    return loaded;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * The parser when `loadShellParser` has finished, for synchronous callers (approval policies).
 * Undefined before: callers must then treat every command as not understood.
 */
export function loadedShellParser(): ShellParser | undefined {
  return loaded;
}

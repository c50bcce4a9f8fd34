/**
 * Source languages, their tree-sitter grammar (a wasm file of `@vscode/tree-sitter-wasm`) and
 * the query finding their definitions. Each query pattern captures the whole definition as
 * `@definition`; the definition's first line is what gets shown.
 */
export interface LanguageSpec {
  /** Shown in messages, e.g. "TypeScript". */
  name: string;
  /** Wasm file name inside the grammar package's `wasm/` folder. */
  grammar: string;
  /** Query patterns, one per definition kind. */
  patterns: string[];
}

/**
 * `const f = () => …` and `const f = function …`. Written as one pattern per value kind: with
 * web-tree-sitter 0.27 an alternation nested this deep matches any value.
 */
function functionValued(declaration: string): string[] {
  return ["arrow_function", "function_expression"].map(
    (value) => `(${declaration} (variable_declarator value: (${value}))) @definition`,
  );
}

const TS_COMMON = [
  "(function_declaration) @definition",
  "(generator_function_declaration) @definition",
  "(class_declaration) @definition",
  "(abstract_class_declaration) @definition",
  "(method_definition) @definition",
  "(abstract_method_signature) @definition",
  "(interface_declaration) @definition",
  "(type_alias_declaration) @definition",
  "(enum_declaration) @definition",
  "(internal_module) @definition",
  ...functionValued("lexical_declaration"),
];

const JAVASCRIPT = [
  "(function_declaration) @definition",
  "(generator_function_declaration) @definition",
  "(class_declaration) @definition",
  "(method_definition) @definition",
  ...functionValued("lexical_declaration"),
  ...functionValued("variable_declaration"),
];

const C_FAMILY = [
  "(function_definition) @definition",
  "(class_specifier body: (field_declaration_list)) @definition",
  "(struct_specifier body: (field_declaration_list)) @definition",
  "(union_specifier body: (field_declaration_list)) @definition",
  "(enum_specifier body: (enumerator_list)) @definition",
  "(namespace_definition) @definition",
  "(type_definition) @definition",
];

const TYPESCRIPT: LanguageSpec = {
  name: "TypeScript",
  grammar: "tree-sitter-typescript.wasm",
  patterns: TS_COMMON,
};
const TSX: LanguageSpec = { name: "TSX", grammar: "tree-sitter-tsx.wasm", patterns: TS_COMMON };
const JS: LanguageSpec = { name: "JavaScript", grammar: "tree-sitter-javascript.wasm", patterns: JAVASCRIPT };
const PYTHON: LanguageSpec = {
  name: "Python",
  grammar: "tree-sitter-python.wasm",
  patterns: ["(class_definition) @definition", "(function_definition) @definition"],
};
const GO: LanguageSpec = {
  name: "Go",
  grammar: "tree-sitter-go.wasm",
  patterns: [
    "(function_declaration) @definition",
    "(method_declaration) @definition",
    "(type_declaration (type_spec)) @definition",
  ],
};
const RUST: LanguageSpec = {
  name: "Rust",
  grammar: "tree-sitter-rust.wasm",
  patterns: [
    "(function_item) @definition",
    "(function_signature_item) @definition",
    "(struct_item) @definition",
    "(enum_item) @definition",
    "(union_item) @definition",
    "(trait_item) @definition",
    "(impl_item) @definition",
    "(type_item) @definition",
    "(mod_item body: (declaration_list)) @definition",
    "(macro_definition) @definition",
  ],
};
const JAVA: LanguageSpec = {
  name: "Java",
  grammar: "tree-sitter-java.wasm",
  patterns: [
    "(class_declaration) @definition",
    "(interface_declaration) @definition",
    "(enum_declaration) @definition",
    "(record_declaration) @definition",
    "(annotation_type_declaration) @definition",
    "(method_declaration) @definition",
    "(constructor_declaration) @definition",
  ],
};
const CPP: LanguageSpec = { name: "C++", grammar: "tree-sitter-cpp.wasm", patterns: C_FAMILY };
/** No C grammar ships; the C++ grammar parses C well enough to find its definitions. */
const C: LanguageSpec = { name: "C", grammar: "tree-sitter-cpp.wasm", patterns: C_FAMILY };
const CSHARP: LanguageSpec = {
  name: "C#",
  grammar: "tree-sitter-c-sharp.wasm",
  patterns: [
    "(class_declaration) @definition",
    "(interface_declaration) @definition",
    "(struct_declaration) @definition",
    "(enum_declaration) @definition",
    "(record_declaration) @definition",
    "(method_declaration) @definition",
    "(constructor_declaration) @definition",
    "(delegate_declaration) @definition",
  ],
};
const RUBY: LanguageSpec = {
  name: "Ruby",
  grammar: "tree-sitter-ruby.wasm",
  patterns: [
    "(class) @definition",
    "(module) @definition",
    "(method) @definition",
    "(singleton_method) @definition",
  ],
};
const PHP: LanguageSpec = {
  name: "PHP",
  grammar: "tree-sitter-php.wasm",
  patterns: [
    "(class_declaration) @definition",
    "(interface_declaration) @definition",
    "(trait_declaration) @definition",
    "(enum_declaration) @definition",
    "(function_definition) @definition",
    "(method_declaration) @definition",
  ],
};
const BASH: LanguageSpec = {
  name: "Bash",
  grammar: "tree-sitter-bash.wasm",
  patterns: ["(function_definition) @definition"],
};

/** Supported languages by lower-case file extension. */
export const LANGUAGES_BY_EXTENSION: ReadonlyMap<string, LanguageSpec> = new Map([
  [".ts", TYPESCRIPT],
  [".mts", TYPESCRIPT],
  [".cts", TYPESCRIPT],
  [".tsx", TSX],
  [".js", JS],
  [".jsx", JS],
  [".mjs", JS],
  [".cjs", JS],
  [".py", PYTHON],
  [".pyi", PYTHON],
  [".go", GO],
  [".rs", RUST],
  [".java", JAVA],
  [".c", C],
  [".h", C],
  [".cc", CPP],
  [".cpp", CPP],
  [".cxx", CPP],
  [".hpp", CPP],
  [".hh", CPP],
  [".hxx", CPP],
  [".cs", CSHARP],
  [".rb", RUBY],
  [".php", PHP],
  [".sh", BASH],
  [".bash", BASH],
]);

/** Source languages recognised but without a grammar here, by extension. */
export const LANGUAGES_WITHOUT_GRAMMAR: ReadonlyMap<string, string> = new Map([
  [".kt", "Kotlin"],
  [".kts", "Kotlin"],
  [".swift", "Swift"],
  [".scala", "Scala"],
  [".lua", "Lua"],
  [".dart", "Dart"],
  [".ex", "Elixir"],
  [".exs", "Elixir"],
  [".erl", "Erlang"],
  [".hs", "Haskell"],
  [".ml", "OCaml"],
  [".clj", "Clojure"],
  [".zig", "Zig"],
  [".vue", "Vue"],
  [".svelte", "Svelte"],
  [".m", "Objective-C"],
  [".r", "R"],
  [".jl", "Julia"],
  [".pl", "Perl"],
  [".groovy", "Groovy"],
  [".fs", "F#"],
  [".sol", "Solidity"],
]);

/** Names of the supported languages, for messages. */
export function supportedLanguageNames(): string {
  return [...new Set([...LANGUAGES_BY_EXTENSION.values()].map((spec) => spec.name))].join(", ");
}

import fs from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import {
  findDefinitions,
  languageOf,
  languageWithoutGrammar,
  renderDefinitions,
} from "../code-definitions/definitions.js";
import { supportedLanguageNames } from "../code-definitions/languages.js";
import { GrammarMissingError } from "../code-definitions/parser.js";
import { checkNotIgnored } from "../ignore/access.js";
import type { IgnoreRules } from "../ignore/ignore-rules.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const describe = (maxFiles: number) =>
  `List the definitions (classes, functions, methods, interfaces, types, enums) in the source files at the top level of a directory, or in one source file, with their line numbers. Gives an overview of code without reading it; at most ${maxFiles} files. Languages: ${supportedLanguageNames()}.`;

const schema = z.object({
  path: z
    .string()
    .check(
      z.describe(
        'Directory (top level only) or source file, relative to the workspace root ("." for the root).',
      ),
    ),
});

export type ListCodeDefinitionNamesInput = z.infer<typeof schema>;

export interface ListCodeDefinitionNamesDetails {
  /** Workspace-relative path given. */
  path: string;
  /** Files with definitions, and how many each has. */
  files: Array<{ path: string; definitions: number }>;
  /** Source files looked at (with or without definitions). */
  scanned: number;
  /** True when the directory held more source files than `maxFiles`. */
  truncated: boolean;
}

export interface ListCodeDefinitionNamesOptions {
  workspace: Workspace;
  /** The person's ignore rules; blocked files are skipped (and a blocked path refused). */
  ignore?: IgnoreRules;
  /** Most source files parsed from a directory. Default 50. */
  maxFiles?: number;
  /** Larger files are skipped. Default 1 MB. */
  maxFileBytes?: number;
  /** Folder with the grammar wasm files. Default: `@vscode/tree-sitter-wasm`'s. */
  grammarDir?: string;
}

export function createListCodeDefinitionNamesTool(
  options: ListCodeDefinitionNamesOptions,
): ToolHandler<ListCodeDefinitionNamesInput, ListCodeDefinitionNamesDetails> {
  const maxFiles = options.maxFiles ?? 50;
  const maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
  const { workspace, ignore } = options;
  return {
    name: "list_code_definition_names",
    description: describe(maxFiles),
    inputSchema: schema,
    mutates: false,
    summarize: (input) => `list_code_definition_names ${input.path}`,
    async execute(input) {
      const resolved = resolveToolPath(workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      const blocked = checkNotIgnored(ignore, abs, workspace);
      if (blocked !== undefined) return errorResult(blocked);
      let isDirectory: boolean;
      try {
        isDirectory = (await fs.stat(abs)).isDirectory();
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
      if (!isDirectory) {
        const spec = languageOf(abs);
        if (spec === undefined) return errorResult(noGrammarMessage(display));
      }
      const candidates = isDirectory ? await sourceFilesIn(abs, ignore) : [abs];
      const chosen = candidates.filter((file) => languageOf(file) !== undefined);
      const files = chosen.slice(0, maxFiles);
      const sections: string[] = [];
      const details: ListCodeDefinitionNamesDetails = {
        path: display,
        files: [],
        scanned: files.length,
        truncated: chosen.length > files.length,
      };
      const missing = new Set<string>();
      for (const file of files) {
        const source = await readSource(file, maxFileBytes);
        if (source === undefined && !isDirectory)
          return errorResult(
            `${display} was skipped: it is binary, unreadable or larger than ${maxFileBytes} bytes.`,
          );
        if (source === undefined) continue;
        const rel = workspace.relative(file);
        try {
          const definitions = await findDefinitions(source, languageOf(file)!, options.grammarDir);
          if (definitions.length === 0) continue;
          sections.push(renderDefinitions(rel, definitions));
          details.files.push({ path: rel, definitions: definitions.length });
        } catch (error) {
          if (!(error instanceof GrammarMissingError)) throw error;
          if (!isDirectory) return errorResult(error.message);
          missing.add(error.message);
        }
      }
      const notes = [...missing];
      const noGrammar = candidates.map(languageWithoutGrammar).filter((name) => name !== undefined);
      if (noGrammar.length > 0) notes.push(`Skipped ${countByName(noGrammar)}: no grammar is available.`);
      if (details.truncated)
        notes.push(`(Only the first ${files.length} of ${chosen.length} source files were parsed.)`);
      if (sections.length === 0) {
        const none = isDirectory
          ? files.length === 0
            ? `No source files found at the top level of ${display} (languages: ${supportedLanguageNames()}). Try a subdirectory.`
            : `No definitions found in the source files at the top level of ${display}.`
          : `No definitions found in ${display}.`;
        return { content: [none, ...notes].join("\n"), details };
      }
      return { content: [...sections, ...notes].join("\n\n"), details };
    },
  };
}

function noGrammarMessage(display: string): string {
  const language = languageWithoutGrammar(display);
  return language === undefined
    ? `${display} is not a source file of a supported language (${supportedLanguageNames()}).`
    : `No tree-sitter grammar is available for ${language}, so definitions in ${display} cannot be listed. Supported: ${supportedLanguageNames()}. Use read_file or search_files instead.`;
}

/** Files at the top level of `dir`, by name, minus those the ignore file blocks. */
async function sourceFilesIn(dir: string, ignore: IgnoreRules | undefined): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(dir, entry.name))
    .filter((file) => ignore === undefined || !ignore.isIgnored(file, false))
    .sort();
}

/** The file's text, or undefined when it is too large, binary (a NUL byte) or unreadable. */
async function readSource(file: string, maxBytes: number): Promise<string | undefined> {
  try {
    if ((await fs.stat(file)).size > maxBytes) return undefined;
    const bytes = await fs.readFile(file);
    return bytes.includes(0) ? undefined : bytes.toString("utf8");
  } catch {
    return undefined;
  }
}

function countByName(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${n} ${name} ${n === 1 ? "file" : "files"}`).join(", ");
}

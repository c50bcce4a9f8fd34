import fs from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { checkNotIgnored } from "../ignore/access.js";
import { type IgnoreRules, ignoreSourceLabel } from "../ignore/ignore-rules.js";
import { searchText } from "../search/search-text.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const describe = (maxMatches: number) =>
  `Search file contents in a directory of the workspace (recursively) with a regular expression (Rust regex syntax, as in ripgrep). Each matching line is shown with its line number and one line of context before and after, grouped by file; matching lines are marked with ">". At most ${maxMatches} matches are shown. Files ignored by .gitignore or .bowlineignore and dependency/build directories are skipped.`;

const schema = z.object({
  path: z
    .string()
    .check(z.describe('Directory (or file) to search, relative to the workspace root ("." for all).')),
  regex: z
    .string()
    .check(
      z.minLength(1),
      z.describe(
        "Regular expression to search for, in Rust regex syntax (escape special characters like ( [ . *).",
      ),
    ),
  file_pattern: z.optional(
    z
      .string()
      .check(
        z.describe(
          'Glob limiting which files are searched, e.g. "*.ts" or "*.{js,jsx}"; it is matched against paths below `path`. Defaults to all files.',
        ),
      ),
  ),
});

export type SearchFilesInput = z.infer<typeof schema>;

export interface SearchFilesDetails {
  /** Workspace-relative path searched. */
  path: string;
  regex: string;
  filePattern?: string;
  /** Matching lines shown. */
  matches: number;
  /** Files with a shown match. */
  files: number;
  /** True when more matches exist than were shown. */
  truncated: boolean;
  /** Matches dropped because their files are blocked by the ignore file. */
  ignoredMatches: number;
  /** The search engine used: ripgrep, or the built-in fallback. */
  engine: "ripgrep" | "node";
}

export interface SearchFilesOptions {
  workspace: Workspace;
  /** The person's ignore rules; matches in ignored files are removed. */
  ignore?: IgnoreRules;
  /** Most matching lines shown. Default 300. */
  maxMatches?: number;
  /** Longer lines are cut. Default 250 characters. */
  maxLineLength?: number;
  /** rg executable instead of `@vscode/ripgrep`'s; when it cannot start, a built-in search runs. */
  rgPath?: string;
}

interface FoundLine {
  line: number;
  text: string;
  match: boolean;
}

export function createSearchFilesTool(
  options: SearchFilesOptions,
): ToolHandler<SearchFilesInput, SearchFilesDetails> {
  const maxMatches = options.maxMatches ?? 300;
  const maxLineLength = options.maxLineLength ?? 250;
  const { workspace, ignore } = options;
  return {
    name: "search_files",
    description: describe(maxMatches),
    inputSchema: schema,
    mutates: false,
    summarize: (input) =>
      `search_files /${input.regex}/ in ${input.path}${input.file_pattern ? ` (${input.file_pattern})` : ""}`,
    async execute(input, ctx) {
      const resolved = resolveToolPath(workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      const blocked = checkNotIgnored(ignore, abs, workspace);
      if (blocked !== undefined) return errorResult(blocked);
      try {
        await fs.stat(abs);
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
      const byFile = new Map<string, FoundLine[]>();
      const ignoredFiles = new Map<string, boolean>();
      const isIgnored = (file: string) => {
        let verdict = ignoredFiles.get(file);
        if (verdict === undefined) {
          verdict = ignore?.isIgnored(path.join(workspace.root, file), false) ?? false;
          ignoredFiles.set(file, verdict);
        }
        return verdict;
      };
      let matches = 0;
      let ignoredMatches = 0;
      let truncated = false;
      const run = await searchText(
        {
          cwd: workspace.root,
          target: display,
          regex: input.regex,
          ...(input.file_pattern ? { glob: input.file_pattern } : {}),
          signal: ctx.signal,
          ...(options.rgPath !== undefined ? { rgPath: options.rgPath } : {}),
        },
        (found) => {
          if (isIgnored(found.path)) {
            if (found.match) ignoredMatches++;
            return true;
          }
          if (found.match && matches >= maxMatches) {
            truncated = true;
            return false;
          }
          if (found.match) matches++;
          const lines = byFile.get(found.path) ?? [];
          lines.push({ line: found.line, text: cut(found.text, maxLineLength), match: found.match });
          byFile.set(found.path, lines);
          return true;
        },
      );
      if (run.error !== undefined) return errorResult(`The search failed: ${run.error}`);
      const details: SearchFilesDetails = {
        path: display,
        regex: input.regex,
        ...(input.file_pattern ? { filePattern: input.file_pattern } : {}),
        matches,
        files: [...byFile.values()].filter((lines) => lines.some((l) => l.match)).length,
        truncated,
        ignoredMatches,
        engine: run.engine,
      };
      const notes = [
        run.warning ? `(Some files could not be searched: ${run.warning})` : "",
        ignoredMatches > 0 && ignore !== undefined
          ? `(${ignoredMatches} ${ignoredMatches === 1 ? "match" : "matches"}${truncated ? " or more" : ""} in files blocked by ${ignoreSourceLabel(ignore)} not shown.)`
          : "",
      ].filter(Boolean);
      return { content: render(byFile, details, notes), details };
    },
  };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [line cut]` : text;
}

function render(byFile: Map<string, FoundLine[]>, details: SearchFilesDetails, notes: string[]): string {
  if (details.matches === 0) return ["Found 0 results.", ...notes].join("\n");
  const header = details.truncated
    ? `Showing the first ${details.matches} results; there are more. Use a more specific regex, path or file_pattern to narrow the search.`
    : `Found ${details.matches} ${details.matches === 1 ? "result" : "results"} in ${details.files} ${details.files === 1 ? "file" : "files"}.`;
  // ripgrep searches files in parallel; sorting keeps the output stable.
  const sections = [...byFile]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, lines]) => `${file}\n${renderLines(lines)}`);
  return [header, ...notes, ...sections].join("\n\n");
}

function renderLines(lines: FoundLine[]): string {
  const width = String(Math.max(...lines.map((l) => l.line))).length;
  const out: string[] = [];
  let previous: number | undefined;
  for (const { line, text, match } of lines) {
    if (previous !== undefined && line > previous + 1) out.push(`${" ".repeat(width + 1)}...`);
    out.push(`${match ? ">" : " "}${String(line).padStart(width)} | ${text}`);
    previous = line;
  }
  return out.join("\n");
}

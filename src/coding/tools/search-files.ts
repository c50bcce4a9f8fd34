import fs from "node:fs/promises";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { commonRipgrepArgs, runRipgrep } from "../search/ripgrep.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const describe = (maxMatches: number) =>
  `Search file contents in a directory of the workspace (recursively) with a regular expression (Rust regex syntax, as in ripgrep). Each matching line is shown with its line number and one line of context before and after, grouped by file; matching lines are marked with ">". At most ${maxMatches} matches are shown. Files ignored by .gitignore and dependency/build directories are skipped.`;

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
}

export interface SearchFilesOptions {
  workspace: Workspace;
  /** Most matching lines shown. Default 300. */
  maxMatches?: number;
  /** Longer lines are cut. Default 250 characters. */
  maxLineLength?: number;
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
  return {
    name: "search_files",
    description: describe(maxMatches),
    inputSchema: schema,
    mutates: false,
    summarize: (input) =>
      `search_files /${input.regex}/ in ${input.path}${input.file_pattern ? ` (${input.file_pattern})` : ""}`,
    async execute(input, ctx) {
      const resolved = resolveToolPath(options.workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      try {
        await fs.stat(abs);
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
      const byFile = new Map<string, FoundLine[]>();
      let matches = 0;
      let truncated = false;
      const args = ["--json", "--context", "1", "--regexp", input.regex, ...commonRipgrepArgs()];
      if (input.file_pattern) args.push("--glob", input.file_pattern);
      args.push("--", display);
      const run = await runRipgrep(
        args,
        options.workspace.root,
        (line) => {
          const event = parseEvent(line);
          if (event === undefined) return true;
          if (event.match && matches >= maxMatches) {
            truncated = true;
            return false;
          }
          if (event.match) matches++;
          const found = byFile.get(event.path) ?? [];
          found.push({ line: event.line, text: cut(event.text, maxLineLength), match: event.match });
          byFile.set(event.path, found);
          return true;
        },
        ctx.signal,
      );
      if (run.exitCode === 2 && matches === 0) {
        return errorResult(`The search failed: ${run.stderr || "ripgrep exited with an error."}`);
      }
      const details: SearchFilesDetails = {
        path: display,
        regex: input.regex,
        ...(input.file_pattern ? { filePattern: input.file_pattern } : {}),
        matches,
        files: [...byFile.values()].filter((lines) => lines.some((l) => l.match)).length,
        truncated,
      };
      const warning =
        run.exitCode === 2 ? `(Some files could not be searched: ${run.stderr.split("\n")[0]})` : "";
      return { content: render(byFile, details, warning), details };
    },
  };
}

type RipgrepText = { text?: string; bytes?: string };

/** A match or context line from one line of `rg --json` output; undefined for other events. */
function parseEvent(json: string): { path: string; line: number; text: string; match: boolean } | undefined {
  const event = JSON.parse(json) as {
    type: string;
    data: { path?: RipgrepText; lines?: RipgrepText; line_number?: number };
  };
  if (event.type !== "match" && event.type !== "context") return undefined;
  const { path, lines, line_number } = event.data;
  if (path === undefined || lines === undefined || line_number === undefined) return undefined;
  return {
    path: decode(path).replace(/^\.\//, ""),
    line: line_number,
    text: decode(lines).replace(/\r?\n$/, ""),
    match: event.type === "match",
  };
}

function decode(value: RipgrepText): string {
  return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [line cut]` : text;
}

function render(byFile: Map<string, FoundLine[]>, details: SearchFilesDetails, warning: string): string {
  if (details.matches === 0) return ["Found 0 results.", warning].filter(Boolean).join("\n");
  const header = details.truncated
    ? `Showing the first ${details.matches} results; there are more. Use a more specific regex, path or file_pattern to narrow the search.`
    : `Found ${details.matches} ${details.matches === 1 ? "result" : "results"} in ${details.files} ${details.files === 1 ? "file" : "files"}.`;
  const sections = [...byFile].map(([file, lines]) => `${file}\n${renderLines(lines)}`);
  return [header, warning, ...sections].filter(Boolean).join("\n\n");
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

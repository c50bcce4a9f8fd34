import fs from "node:fs/promises";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { looksBinary, splitLines, toLf } from "../files/text-format.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const describe = (maxLines: number) =>
  `Read a text file in the workspace. Lines come numbered ("  12 | text"); the numbers are not part of the file, so leave them out when you quote lines in replace_in_file. At most ${maxLines} lines are returned per call: use start_line and end_line (1-based, inclusive) to read a large file in parts. Binary files cannot be read.`;

const schema = z.object({
  path: z.string().check(z.describe("Path of the file, relative to the workspace root.")),
  start_line: z.optional(
    z.int().check(z.minimum(1), z.describe("First line to read, 1-based. Defaults to 1.")),
  ),
  end_line: z.optional(
    z
      .int()
      .check(
        z.minimum(1),
        z.describe(
          "Last line to read, 1-based and inclusive. Defaults to the end of the file or of the window.",
        ),
      ),
  ),
});

export type ReadFileInput = z.infer<typeof schema>;

export interface ReadFileDetails {
  /** Workspace-relative path. */
  path: string;
  startLine: number;
  /** Last line shown; `startLine - 1` for an empty file. */
  endLine: number;
  totalLines: number;
}

export interface ReadFileOptions {
  workspace: Workspace;
  /** Most lines returned by one call. Default 1000. */
  maxLines?: number;
  /** Longer lines are cut, with a note. Default 2000 characters. */
  maxLineLength?: number;
  /** Larger files are refused. Default 20 MB. */
  maxFileBytes?: number;
}

export function createReadFileTool(options: ReadFileOptions): ToolHandler<ReadFileInput, ReadFileDetails> {
  const maxLines = options.maxLines ?? 1000;
  const maxLineLength = options.maxLineLength ?? 2000;
  const maxFileBytes = options.maxFileBytes ?? 20 * 1024 * 1024;
  return {
    name: "read_file",
    description: describe(maxLines),
    inputSchema: schema,
    mutates: false,
    summarize: (input) => `read_file ${input.path}${rangeSuffix(input)}`,
    async execute(input) {
      const resolved = resolveToolPath(options.workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      let bytes: Buffer;
      try {
        const stats = await fs.stat(abs);
        if (stats.isDirectory())
          return errorResult(`${display} is a directory. Use list_files to see its contents.`);
        if (stats.size > maxFileBytes) {
          return errorResult(
            `${display} is too large to read (${stats.size} bytes). Use search_files to find the part you need.`,
          );
        }
        bytes = await fs.readFile(abs);
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
      if (looksBinary(bytes)) {
        return errorResult(
          `${display} looks like a binary file (it contains NUL bytes); read_file only reads text.`,
        );
      }
      return renderWindow(display, splitLines(toLf(bytes.toString("utf8"))), input, maxLines, maxLineLength);
    },
  };
}

function rangeSuffix(input: ReadFileInput): string {
  if (input.start_line === undefined && input.end_line === undefined) return "";
  return `:${input.start_line ?? 1}-${input.end_line ?? ""}`;
}

function renderWindow(
  display: string,
  lines: string[],
  input: ReadFileInput,
  maxLines: number,
  maxLineLength: number,
) {
  const total = lines.length;
  const start = input.start_line ?? 1;
  if (input.end_line !== undefined && input.end_line < start) {
    return errorResult(`end_line (${input.end_line}) is before start_line (${start}).`);
  }
  if (total === 0) {
    const details = { path: display, startLine: 1, endLine: 0, totalLines: 0 };
    return { content: `(${display} is empty.)`, details };
  }
  if (start > total) {
    return errorResult(`start_line ${start} is past the end of ${display}, which has ${total} lines.`);
  }
  const end = Math.min(input.end_line ?? total, total, start + maxLines - 1);
  const width = String(end).length;
  const numbered = lines.slice(start - 1, end).map((line, i) => {
    const text =
      line.length > maxLineLength
        ? `${line.slice(0, maxLineLength)}… [line cut: ${line.length - maxLineLength} more characters]`
        : line;
    return `${String(start + i).padStart(width)} | ${text}`;
  });
  const notes: string[] = [];
  if (end < total) {
    notes.push(`(Showing lines ${start}-${end} of ${total}. Use start_line=${end + 1} to read more.)`);
  } else if (start > 1) {
    notes.push(`(Showing lines ${start}-${end} of ${total}.)`);
  }
  const content = [numbered.join("\n"), ...notes].join("\n\n");
  return { content, details: { path: display, startLine: start, endLine: end, totalLines: total } };
}

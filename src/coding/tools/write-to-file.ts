import fs from "node:fs/promises";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { writeFileAtomic } from "../files/atomic-write.js";
import { countLineChanges } from "../files/line-changes.js";
import { applyTextFormat, detectTextFormat, splitLines, toLf } from "../files/text-format.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const DESCRIPTION =
  "Create a file, or replace an existing file's whole content. Missing parent directories are created. " +
  "Give the complete content: anything left out is lost. To change part of an existing file, prefer " +
  "replace_in_file. An existing file keeps its line endings (CRLF or LF).";

const schema = z.object({
  path: z.string().check(z.describe("Path of the file to write, relative to the workspace root.")),
  content: z.string().check(z.describe("The complete content of the file, with no line numbers.")),
});

export type WriteToFileInput = z.infer<typeof schema>;

export interface WriteToFileDetails {
  /** Workspace-relative path. */
  path: string;
  /** True when the file did not exist before. */
  created: boolean;
  linesAdded: number;
  linesRemoved: number;
}

export interface WriteToFileOptions {
  workspace: Workspace;
}

export function createWriteToFileTool(
  options: WriteToFileOptions,
): ToolHandler<WriteToFileInput, WriteToFileDetails> {
  return {
    name: "write_to_file",
    description: DESCRIPTION,
    inputSchema: schema,
    mutates: true,
    summarize: (input) => `write_to_file ${input.path}`,
    async execute(input) {
      const resolved = resolveToolPath(options.workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      try {
        const previous = await readIfExists(abs);
        const data =
          previous === undefined ? input.content : applyTextFormat(input.content, detectTextFormat(previous));
        await writeFileAtomic(abs, data);
        const { linesAdded, linesRemoved } = countLineChanges(
          splitLines(toLf(previous ?? "")),
          splitLines(toLf(data)),
        );
        const details = { path: display, created: previous === undefined, linesAdded, linesRemoved };
        return { content: describeWrite(details, data), details };
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
    },
  };
}

/** The file's text, or undefined when there is no file. A directory throws `EISDIR`. */
async function readIfExists(abs: string): Promise<string | undefined> {
  try {
    return await fs.readFile(abs, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function describeWrite(details: WriteToFileDetails, data: string): string {
  if (details.created) return `Created ${details.path} (${splitLines(toLf(data)).length} lines).`;
  const crlf = data.includes("\r\n") ? " The file's CRLF line endings were kept." : "";
  return `Wrote ${details.path}: ${details.linesAdded} lines added, ${details.linesRemoved} removed.${crlf}`;
}

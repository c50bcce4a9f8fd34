import fs from "node:fs/promises";
import * as z from "zod/mini";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import { type AppliedEdit, applyEditBlocks, describeStage, type FailedEdit } from "../edit/apply-blocks.js";
import { parseSearchReplace, SEARCH_REPLACE_FORMAT } from "../edit/search-replace.js";
import { writeFileAtomic } from "../files/atomic-write.js";
import { applyTextFormat, detectTextFormat, looksBinary, toLf } from "../files/text-format.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const DESCRIPTION = `Edit parts of an existing file with SEARCH/REPLACE blocks:
${SEARCH_REPLACE_FORMAT}
Rules:
- SEARCH must match whole lines of the current file exactly (whitespace, indentation, comments) and match exactly one place; include a few neighbouring lines to make it unique.
- Small whitespace or indentation slips are tolerated (new lines are re-indented to match the file), but a SEARCH that could match several places is refused.
- Several blocks may be given; they are applied in order, each to the result of the previous ones. Keep each block small: just the lines that change plus enough context.
- To delete lines, leave REPLACE empty. To move code, use one block to delete it and another to insert it.
- Blocks that match are applied even if others fail; the result says which failed. Re-read the file before retrying a failed block.
- Use write_to_file to create a file.`;

const schema = z.object({
  path: z.string().check(z.describe("Path of the file to edit, relative to the workspace root.")),
  diff: z
    .string()
    .check(z.describe(`One or more SEARCH/REPLACE blocks, each in this format:\n${SEARCH_REPLACE_FORMAT}`)),
});

export type ReplaceInFileInput = z.infer<typeof schema>;

export interface ReplaceInFileDetails {
  /** Workspace-relative path. */
  path: string;
  /** How many blocks were applied. */
  applied: number;
  /** Each applied block: where it landed and which matching stage found it. */
  blocks: AppliedEdit[];
  failed: FailedEdit[];
}

export interface ReplaceInFileOptions {
  workspace: Workspace;
}

export function createReplaceInFileTool(
  options: ReplaceInFileOptions,
): ToolHandler<ReplaceInFileInput, ReplaceInFileDetails> {
  return {
    name: "replace_in_file",
    description: DESCRIPTION,
    inputSchema: schema,
    mutates: true,
    summarize: (input) => `replace_in_file ${input.path}`,
    async execute(input) {
      const resolved = resolveToolPath(options.workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      const parsed = parseSearchReplace(input.diff);
      if (!parsed.ok) return errorResult(parsed.error);
      let original: string;
      try {
        const bytes = await fs.readFile(abs);
        if (looksBinary(bytes))
          return errorResult(`${display} looks like a binary file; it cannot be edited.`);
        original = bytes.toString("utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") {
          return errorResult(`${display} does not exist. Check the path, or use write_to_file to create it.`);
        }
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
      const result = applyEditBlocks(toLf(original), parsed.blocks);
      const details = {
        path: display,
        applied: result.applied.length,
        blocks: result.applied,
        failed: result.failed,
      };
      if (result.applied.length > 0) {
        try {
          await writeFileAtomic(abs, applyTextFormat(result.content, detectTextFormat(original)));
        } catch (error) {
          const message = describeFileError(error, display);
          if (message === undefined) throw error;
          return errorResult(`No changes were saved: ${message}`);
        }
      }
      return report(details, result.applied, parsed.blocks.length);
    },
  };
}

function report(
  details: ReplaceInFileDetails,
  applied: AppliedEdit[],
  total: number,
): ToolResult<ReplaceInFileDetails> {
  const failures = details.failed.map((failure) => failure.reason);
  if (applied.length === 0) {
    const content = [`No changes were made to ${details.path}.`, ...failures].join("\n");
    return { content, details, isError: true };
  }
  const where = applied.map(describeApplied).join(", ");
  const summary = `Edited ${details.path}: applied ${applied.length} of ${total} blocks (${where}).`;
  if (failures.length === 0) return { content: summary, details };
  const retry = `The applied blocks are saved. Re-read ${details.path} with read_file before retrying the failed blocks.`;
  return { content: [summary, ...failures, retry].join("\n"), details, isError: true };
}

function describeApplied(applied: AppliedEdit): string {
  const how = applied.stage === "exact" ? "" : ` (matched ${describeStage(applied.stage)})`;
  return `block ${applied.block} at line ${applied.line}${how}`;
}

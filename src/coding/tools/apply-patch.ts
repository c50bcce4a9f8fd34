import fs from "node:fs/promises";
import * as z from "zod/mini";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import { describeStage } from "../edit/apply-blocks.js";
import type { MatchStage } from "../edit/match-stages.js";
import { applyHunks } from "../edit/patch-apply.js";
import { PATCH_FORMAT, type PatchOp, parsePatch } from "../edit/patch-parse.js";
import { writeFileAtomic } from "../files/atomic-write.js";
import { countLineChanges } from "../files/line-changes.js";
import { applyTextFormat, detectTextFormat, looksBinary, splitLines, toLf } from "../files/text-format.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const DESCRIPTION = `Add, update, delete or move files with one patch in the V4A format:
${PATCH_FORMAT}
Rules:
- Paths are relative to the workspace root. "*** Update File:" may be followed by "*** Move to: <new path>".
- In an update, each hunk starts with "@@", optionally followed by a line the hunk comes after (e.g. "@@ class Foo") to say where it goes. Lines start with " " (context, unchanged), "-" (removed) or "+" (added). Give about 3 context lines before and after each change.
- Hunks are applied in order; context must match the file (small whitespace slips are tolerated). End a hunk with "*** End of File" when it ends at the end of the file.
- A new file's lines all start with "+".
- All or nothing: if any hunk of any file cannot be placed, no file is changed.`;

const schema = z.object({
  input: z.string().check(z.describe("The whole patch, from *** Begin Patch to *** End Patch.")),
});

export type ApplyPatchInput = z.infer<typeof schema>;

export interface PatchedFile {
  /** Workspace-relative path the patch named. */
  path: string;
  action: "added" | "updated" | "deleted" | "moved";
  /** New path of a moved file. */
  movedTo?: string;
  linesAdded: number;
  linesRemoved: number;
  /** How each hunk's context was found, for updates. */
  stages?: MatchStage[];
}

export interface ApplyPatchDetails {
  files: PatchedFile[];
  /** Set when writing failed midway: the files that were changed before the failure. */
  partiallyApplied?: string[];
}

export interface ApplyPatchOptions {
  workspace: Workspace;
}

/** One planned change on disk: write `data` to `abs`, or remove it when `data` is undefined. */
interface Write {
  abs: string;
  display: string;
  data: string | undefined;
}

interface Plan {
  file: PatchedFile;
  writes: Write[];
}

export function createApplyPatchTool(
  options: ApplyPatchOptions,
): ToolHandler<ApplyPatchInput, ApplyPatchDetails> {
  return {
    name: "apply_patch",
    description: DESCRIPTION,
    inputSchema: schema,
    mutates: true,
    category: "edit",
    approvalPaths: (input) => patchPaths(input.input),
    summarize: (input) => `apply_patch ${patchPaths(input.input).join(", ")}`.trimEnd(),
    async execute(input) {
      const parsed = parsePatch(input.input);
      if (!parsed.ok) return errorResult(parsed.error);
      const plans: Plan[] = [];
      const seen = new Set<string>();
      for (const op of parsed.ops) {
        const planned = await planOp(options.workspace, op, seen);
        if ("error" in planned) return errorResult(`No file was changed. ${planned.error}`);
        plans.push(planned);
      }
      return commit(plans);
    },
  };
}

/** Every path the patch names (including move targets); empty when it cannot be parsed. */
export function patchPaths(patch: string): string[] {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return [];
  return parsed.ops.flatMap((op) =>
    op.type === "update" && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path],
  );
}

async function planOp(
  workspace: Workspace,
  op: PatchOp,
  seen: Set<string>,
): Promise<Plan | { error: string }> {
  const resolved = resolveToolPath(workspace, op.path);
  if (!resolved.ok) return { error: textOf(resolved.result) };
  const { abs, display } = resolved;
  if (seen.has(abs))
    return { error: `${display} appears more than once in the patch; put all its changes in one entry.` };
  seen.add(abs);
  const existing = await readText(abs, display);
  if (typeof existing === "object") return existing;
  if (op.type === "add") {
    if (existing !== undefined)
      return { error: `${display} already exists; use "*** Update File:" to change it.` };
    const data = op.lines.length === 0 ? "" : `${op.lines.join("\n")}\n`;
    return {
      file: { path: display, action: "added", linesAdded: op.lines.length, linesRemoved: 0 },
      writes: [{ abs, display, data }],
    };
  }
  if (existing === undefined)
    return { error: `${display} does not exist; use "*** Add File:" to create it.` };
  const before = splitLines(toLf(existing));
  if (op.type === "delete") {
    return {
      file: { path: display, action: "deleted", linesAdded: 0, linesRemoved: before.length },
      writes: [{ abs, display, data: undefined }],
    };
  }
  const applied = applyHunks(before, op.hunks, display);
  if (!applied.ok) return { error: applied.error };
  const lf = toLf(existing);
  const keepsFinalNewline = lf === "" || lf.endsWith("\n");
  const body = applied.lines.join("\n") + (applied.lines.length > 0 && keepsFinalNewline ? "\n" : "");
  const data = applyTextFormat(body, detectTextFormat(existing));
  const changes = countLineChanges(before, applied.lines);
  const file: PatchedFile = { path: display, action: "updated", ...changes, stages: applied.stages };
  if (op.moveTo === undefined) return { file, writes: [{ abs, display, data }] };
  const target = resolveToolPath(workspace, op.moveTo);
  if (!target.ok) return { error: textOf(target.result) };
  if (target.abs === abs) return { file, writes: [{ abs, display, data }] };
  if (seen.has(target.abs)) return { error: `${target.display} appears more than once in the patch.` };
  seen.add(target.abs);
  const occupied = await readText(target.abs, target.display);
  if (typeof occupied === "object") return occupied;
  if (occupied !== undefined)
    return { error: `Cannot move ${display} to ${target.display}: it already exists.` };
  return {
    file: { ...file, action: "moved", movedTo: target.display },
    writes: [
      { abs: target.abs, display: target.display, data },
      { abs, display, data: undefined },
    ],
  };
}

/** The file's text, undefined when missing, or an error the model can act on. */
async function readText(abs: string, display: string): Promise<string | undefined | { error: string }> {
  try {
    const bytes = await fs.readFile(abs);
    if (looksBinary(bytes)) return { error: `${display} looks like a binary file; it cannot be patched.` };
    return bytes.toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    const message = describeFileError(error, display);
    if (message === undefined) throw error;
    return { error: message };
  }
}

async function commit(plans: Plan[]): Promise<ToolResult<ApplyPatchDetails>> {
  const changed: string[] = [];
  for (const plan of plans) {
    for (const write of plan.writes) {
      try {
        if (write.data === undefined) await fs.rm(write.abs);
        else await writeFileAtomic(write.abs, write.data);
        changed.push(write.display);
      } catch (error) {
        const message = describeFileError(error, write.display) ?? (error as Error).message;
        const done =
          changed.length === 0
            ? "No file was changed."
            : `These files WERE changed before the failure: ${changed.join(", ")}.`;
        return {
          content: `Writing ${write.display} failed: ${message}\n${done} Re-read the files before patching again.`,
          details: { files: plans.map((p) => p.file), partiallyApplied: changed },
          isError: true,
        };
      }
    }
  }
  const files = plans.map((plan) => plan.file);
  return { content: files.map(describeFile).join("\n"), details: { files } };
}

function describeFile(file: PatchedFile): string {
  const counts = `+${file.linesAdded} -${file.linesRemoved}`;
  const loose = (file.stages ?? []).flatMap((stage, i) =>
    stage === "exact" ? [] : [`hunk ${i + 1} matched ${describeStage(stage)}`],
  );
  const note = loose.length > 0 ? ` (${loose.join(", ")})` : "";
  switch (file.action) {
    case "added":
      return `Added ${file.path} (${file.linesAdded} lines).`;
    case "deleted":
      return `Deleted ${file.path} (${file.linesRemoved} lines).`;
    case "moved":
      return `Moved ${file.path} to ${file.movedTo} (${counts})${note}.`;
    default:
      return `Updated ${file.path} (${counts})${note}.`;
  }
}

function textOf(result: ToolResult<never>): string {
  return typeof result.content === "string"
    ? result.content
    : result.content.map((b) => ("text" in b ? b.text : "")).join("");
}

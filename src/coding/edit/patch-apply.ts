import { closestRegion, numberedLines } from "./closest-lines.js";
import { findLines, type MatchStage } from "./match-stages.js";
import { type EditOp, mergeEdit } from "./merge.js";
import type { PatchHunk } from "./patch-parse.js";

/**
 * Applying the hunks of one `*** Update File` to the file's lines, in order. A hunk's context and
 * removed lines are found with the strict stages only (exact, whitespace, indentation,
 * line-trimmed), preferring a place after the previous hunk; an `@@` anchor picks the first place
 * after the anchor line. Several places with nothing to choose between them is an error.
 */

const PATCH_STAGES: readonly MatchStage[] = ["exact", "whitespace", "indentation", "line-trimmed"];

export type HunksResult = { ok: true; lines: string[]; stages: MatchStage[] } | { ok: false; error: string };

export function applyHunks(file: readonly string[], hunks: readonly PatchHunk[], path: string): HunksResult {
  let lines = [...file];
  let cursor = 0;
  const stages: MatchStage[] = [];
  for (const hunk of hunks) {
    const where = `Hunk ${hunk.number} of ${path}`;
    let anchorLine: number | undefined;
    if (hunk.anchor !== undefined) {
      anchorLine = findAnchor(lines, hunk.anchor, cursor);
      if (anchorLine === undefined) {
        return {
          ok: false,
          error: `${where}: the @@ anchor "${hunk.anchor}" is not a line of the file (or matches several before the previous hunk). Re-read the file and use an exact line.`,
        };
      }
    }
    const old: string[] = [];
    const ops: EditOp[] = [];
    for (const line of hunk.lines) {
      if (line.kind === "add") ops.push({ type: "insert", text: line.text });
      else {
        ops.push({ type: line.kind === "context" ? "keep" : "delete", s: old.length });
        old.push(line.text);
      }
    }
    const added = hunk.lines.filter((line) => line.kind === "add").map((line) => line.text);
    if (old.length === 0) {
      const at = anchorLine !== undefined ? anchorLine + 1 : lines.length;
      lines = [...lines.slice(0, at), ...added, ...lines.slice(at)];
      stages.push("exact");
      cursor = at + added.length;
      continue;
    }
    const options = {
      stages: PATCH_STAGES,
      from: anchorLine ?? cursor,
      firstAfter: anchorLine !== undefined,
    };
    let found = findLines(lines, old, hunk.endOfFile ? { ...options, atEnd: true } : options);
    if (hunk.endOfFile && found.kind === "none") found = findLines(lines, old, options);
    if (found.kind === "none") return { ok: false, error: notFound(where, lines, old) };
    if (found.kind === "ambiguous") {
      const at = found.starts
        .slice(0, 10)
        .map((s) => s + 1)
        .join(", ");
      return {
        ok: false,
        error: `${where}: its context matches ${found.starts.length} places (lines ${at}). Add an "@@ <line>" anchor naming the function or class it is in, or more context lines.`,
      };
    }
    const { match } = found;
    const replacement = mergeEdit(lines.slice(match.start, match.end), match.mapping, ops, match.shift, old);
    lines = [...lines.slice(0, match.start), ...replacement, ...lines.slice(match.end)];
    stages.push(match.stage);
    cursor = match.start + replacement.length;
  }
  return { ok: true, lines, stages };
}

/** The anchor's line: the first at or after `cursor`, else the only one in the file. */
function findAnchor(lines: readonly string[], anchor: string, cursor: number): number | undefined {
  for (const equal of [(l: string) => l === anchor, (l: string) => l.trim() === anchor.trim()]) {
    const all = lines.flatMap((line, i) => (equal(line) ? [i] : []));
    const after = all.find((i) => i >= cursor);
    if (after !== undefined) return after;
    if (all.length === 1) return all[0];
  }
  return undefined;
}

function notFound(where: string, lines: readonly string[], old: readonly string[]): string {
  const parts = [
    `${where}: its context and "-" lines were not found in the file, even ignoring whitespace. Re-read the file and copy the lines exactly.`,
  ];
  const closest = closestRegion(lines, old);
  if (closest !== undefined) {
    parts.push(`The closest lines in the file are:\n${numberedLines(lines, closest.start, closest.size)}`);
  }
  return parts.join("\n");
}

import { closestRegion, numberedLines } from "./closest-lines.js";
import { findLines, type LineMatch, type MatchStage } from "./match-stages.js";
import { diffLines, mergeEdit } from "./merge.js";

/**
 * Applying SEARCH/REPLACE blocks to LF text, one at a time and in order, each to the result of the
 * ones before. Every block is looked for in the whole file (so blocks given out of order still
 * apply), through the stages of `findLines`. A block that is missing or ambiguous is skipped and
 * reported; the others apply.
 */

/** One edit: the lines to find and the lines to put in their place. */
export interface EditBlock {
  search: readonly string[];
  replace: readonly string[];
}

export interface AppliedEdit {
  /** 1-based block number. */
  block: number;
  /** 1-based line where the replacement starts. */
  line: number;
  /** How the SEARCH lines were found. */
  stage: MatchStage;
}

export interface FailedEdit {
  block: number;
  reason: string;
}

export interface EditOutcome {
  content: string;
  applied: AppliedEdit[];
  failed: FailedEdit[];
}

export function applyEditBlocks(content: string, blocks: readonly EditBlock[]): EditOutcome {
  const endsWithNewline = content === "" || content.endsWith("\n");
  let lines = content === "" ? [] : (endsWithNewline ? content.slice(0, -1) : content).split("\n");
  const applied: AppliedEdit[] = [];
  const failed: FailedEdit[] = [];
  blocks.forEach((block, index) => {
    const number = index + 1;
    if (block.search.length === 0) {
      if (lines.length > 0) failed.push({ block: number, reason: emptySearchReason(number) });
      else {
        lines = [...block.replace];
        applied.push({ block: number, line: 1, stage: "exact" });
      }
      return;
    }
    const found = findLines(lines, block.search);
    if (found.kind === "none") {
      failed.push({ block: number, reason: notFoundReason(number, lines, block.search) });
      return;
    }
    if (found.kind === "ambiguous") {
      failed.push({ block: number, reason: ambiguousReason(number, found.stage, found.starts) });
      return;
    }
    const { match } = found;
    lines = [
      ...lines.slice(0, match.start),
      ...replacementLines(lines, block, match),
      ...lines.slice(match.end),
    ];
    applied.push({ block: number, line: match.start + 1, stage: match.stage });
  });
  const text = lines.join("\n");
  return {
    content: lines.length === 0 ? "" : endsWithNewline ? `${text}\n` : text,
    applied,
    failed,
  };
}

/**
 * The REPLACE lines as they go into the file: as written for an exact match; otherwise merged, so
 * lines the model kept from SEARCH come from the file and new lines take the file's indentation.
 */
export function replacementLines(file: readonly string[], block: EditBlock, match: LineMatch): string[] {
  if (match.stage === "exact") return [...block.replace];
  const window = file.slice(match.start, match.end);
  return mergeEdit(window, match.mapping, diffLines(block.search, block.replace), match.shift, block.search);
}

const MAX_LISTED = 10;

const STAGE_WORDING: Record<MatchStage, string> = {
  exact: "exactly",
  whitespace: "ignoring trailing whitespace",
  indentation: "ignoring indentation",
  "line-trimmed": "ignoring leading and trailing whitespace",
  anchors: "by its first and last lines",
  fuzzy: "approximately",
};

/** How a stage is described to the model, e.g. "ignoring indentation". */
export function describeStage(stage: MatchStage): string {
  return STAGE_WORDING[stage];
}

function emptySearchReason(block: number): string {
  return (
    `Block ${block}: the SEARCH section is empty, but the file is not. Put the existing lines next to ` +
    "the change in SEARCH and repeat them in REPLACE along with the new lines."
  );
}

function ambiguousReason(block: number, stage: MatchStage, starts: number[]): string {
  const lines = starts.slice(0, MAX_LISTED).map((start) => start + 1);
  const more = starts.length > MAX_LISTED ? " and more" : "";
  const how = stage === "exact" ? "" : ` (${describeStage(stage)})`;
  return (
    `Block ${block}: the SEARCH text matches ${starts.length}${more} places${how} (lines ${lines.join(", ")}${more}), so nothing was changed for it. ` +
    "Add neighbouring lines to SEARCH so that it matches exactly one place."
  );
}

const LINE_NUMBER_PREFIX = /^\s*\d+ \| /;

function notFoundReason(block: number, file: readonly string[], search: readonly string[]): string {
  const parts = [
    `Block ${block}: the SEARCH text was not found in the file, even ignoring whitespace. It must match the file's current lines ` +
      "(including comments) and be unique. Re-read the file with read_file and copy the lines exactly.",
  ];
  const nonEmpty = search.filter((line) => line.trim() !== "");
  if (nonEmpty.length > 0 && nonEmpty.every((line) => LINE_NUMBER_PREFIX.test(line))) {
    parts.push('SEARCH lines must not include the "  12 | " line numbers that read_file shows.');
  }
  const closest = closestRegion(file, search);
  if (closest !== undefined) {
    parts.push(
      `The closest lines in the file (${Math.round(closest.score * 100)}% similar) are:\n${numberedLines(file, closest.start, closest.size)}`,
    );
  }
  return parts.join("\n");
}

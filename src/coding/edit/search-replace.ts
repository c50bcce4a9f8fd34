import { applyEditBlocks } from "./apply-blocks.js";

/**
 * SEARCH/REPLACE edits: the format, and parsing the blocks a model writes. Matching and applying
 * live in `apply-blocks.ts`: a SEARCH section matches whole lines, in one place.
 */

/** One edit: the lines to find and the lines to put in their place. */
export interface SearchReplaceBlock {
  search: string[];
  replace: string[];
}

export const SEARCH_REPLACE_FORMAT = `------- SEARCH
exact lines to find
=======
replacement lines
+++++++ REPLACE`;

const SEARCH_MARKER = /^(?:-{3,}|<{3,}) ?SEARCH>?$/;
const SEPARATOR = /^={3,}$/;
const REPLACE_MARKER = /^(?:\+{3,}|>{3,}) ?REPLACE>?$/;

export type ParseResult = { ok: true; blocks: SearchReplaceBlock[] } | { ok: false; error: string };

/** Parses `diff` into blocks, or explains (with the expected format) why it is malformed. */
export function parseSearchReplace(diff: string): ParseResult {
  const blocks: SearchReplaceBlock[] = [];
  let state: "outside" | "search" | "replace" = "outside";
  let current: SearchReplaceBlock = { search: [], replace: [] };
  const fail = (problem: string): ParseResult => ({
    ok: false,
    error: `The diff is malformed: ${problem}\nEach block must look like this, with the markers on lines of their own:\n${SEARCH_REPLACE_FORMAT}`,
  });
  for (const line of diff.replace(/\r\n/g, "\n").split("\n")) {
    const marker = line.trim();
    const blockNumber = blocks.length + 1;
    if (state === "outside") {
      if (SEARCH_MARKER.test(marker)) {
        current = { search: [], replace: [] };
        state = "search";
      } else if (SEPARATOR.test(marker) || REPLACE_MARKER.test(marker)) {
        return fail(`block ${blockNumber} has "${marker}" without a "------- SEARCH" line before it.`);
      }
    } else if (state === "search") {
      if (SEPARATOR.test(marker)) state = "replace";
      else if (SEARCH_MARKER.test(marker) || REPLACE_MARKER.test(marker)) {
        return fail(`block ${blockNumber} has "${marker}" before its "=======" separator.`);
      } else current.search.push(line);
    } else if (REPLACE_MARKER.test(marker)) {
      blocks.push(current);
      state = "outside";
    } else if (SEARCH_MARKER.test(marker)) {
      return fail(`block ${blockNumber} has no "+++++++ REPLACE" line before the next SEARCH.`);
    } else current.replace.push(line);
  }
  if (state !== "outside")
    return fail(`block ${blocks.length + 1} is not closed by a "+++++++ REPLACE" line.`);
  if (blocks.length === 0) return fail("it contains no SEARCH/REPLACE block.");
  return { ok: true, blocks };
}

export interface AppliedBlock {
  /** 1-based block number. */
  block: number;
  /** 1-based line where the replacement starts. */
  line: number;
}

export interface FailedBlock {
  block: number;
  reason: string;
}

export interface ApplyResult {
  content: string;
  applied: AppliedBlock[];
  failed: FailedBlock[];
}

/**
 * Applies `blocks` in order to LF `content` with the staged matching of `applyEditBlocks`,
 * reporting where each applied block landed but not how it matched.
 */
export function applySearchReplace(content: string, blocks: readonly SearchReplaceBlock[]): ApplyResult {
  const outcome = applyEditBlocks(content, blocks);
  return {
    content: outcome.content,
    applied: outcome.applied.map(({ block, line }) => ({ block, line })),
    failed: outcome.failed,
  };
}

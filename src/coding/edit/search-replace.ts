/**
 * SEARCH/REPLACE edits: parsing the blocks a model writes and applying them to LF text.
 * Matching is exact and line-aligned: a SEARCH section matches whole lines, once.
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
 * Applies `blocks` in order to LF `content`, each to the result of the ones before. A block
 * whose SEARCH is missing or found more than once is skipped and reported; the others apply.
 */
export function applySearchReplace(content: string, blocks: readonly SearchReplaceBlock[]): ApplyResult {
  const endsWithNewline = content === "" || content.endsWith("\n");
  let text = endsWithNewline ? content : `${content}\n`;
  const applied: AppliedBlock[] = [];
  const failed: FailedBlock[] = [];
  blocks.forEach((block, index) => {
    const number = index + 1;
    const replacement = block.replace.length > 0 ? `${block.replace.join("\n")}\n` : "";
    if (block.search.length === 0) {
      if (text !== "") {
        failed.push({ block: number, reason: emptySearchReason(number) });
        return;
      }
      text = replacement;
      applied.push({ block: number, line: 1 });
      return;
    }
    const needle = `${block.search.join("\n")}\n`;
    const matches = findLineAlignedMatches(text, needle);
    if (matches.length !== 1) {
      const reason =
        matches.length === 0
          ? notFoundReason(number, text, block.search)
          : ambiguousReason(number, text, matches);
      failed.push({ block: number, reason });
      return;
    }
    const at = matches[0]!;
    text = text.slice(0, at) + replacement + text.slice(at + needle.length);
    applied.push({ block: number, line: lineNumberAt(text, at) });
  });
  if (!endsWithNewline && text.endsWith("\n")) text = text.slice(0, -1);
  return { content: text, applied, failed };
}

const MAX_LISTED_MATCHES = 10;

function findLineAlignedMatches(text: string, needle: string): number[] {
  const found: number[] = [];
  let at = text.indexOf(needle);
  while (at !== -1 && found.length <= MAX_LISTED_MATCHES) {
    if (at === 0 || text[at - 1] === "\n") found.push(at);
    at = text.indexOf(needle, at + 1);
  }
  return found;
}

function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function emptySearchReason(block: number): string {
  return (
    `Block ${block}: the SEARCH section is empty, but the file is not. Put the existing lines next to ` +
    "the change in SEARCH and repeat them in REPLACE along with the new lines."
  );
}

function ambiguousReason(block: number, text: string, matches: number[]): string {
  const lines = matches.slice(0, MAX_LISTED_MATCHES).map((at) => lineNumberAt(text, at));
  const more = matches.length > MAX_LISTED_MATCHES ? " and more" : "";
  return (
    `Block ${block}: the SEARCH text matches ${matches.length}${more} places (lines ${lines.join(", ")}${more}). ` +
    "Add neighbouring lines to SEARCH so that it matches exactly one place."
  );
}

const LINE_NUMBER_PREFIX = /^\s*\d+ \| /;

function notFoundReason(block: number, text: string, search: string[]): string {
  const hints: string[] = [];
  const nonEmpty = search.filter((line) => line.trim() !== "");
  if (nonEmpty.length > 0 && nonEmpty.every((line) => LINE_NUMBER_PREFIX.test(line))) {
    hints.push('SEARCH lines must not include the "  12 | " line numbers that read_file shows.');
  }
  const first = nonEmpty[0]?.trim();
  if (first !== undefined) {
    const similar = text
      .split("\n")
      .flatMap((line, i) => (line.trim() === first ? [i + 1] : []))
      .slice(0, 5);
    if (similar.length > 0) {
      hints.push(
        `The first SEARCH line appears, ignoring indentation, at line ${similar.join(", ")}; check the whitespace of the lines after it.`,
      );
    }
  }
  return [
    `Block ${block}: the SEARCH text was not found in the file. It must match the file's current lines exactly, ` +
      "including whitespace, indentation and comments. Re-read the file with read_file and copy the lines exactly.",
    ...hints,
  ].join(" ");
}

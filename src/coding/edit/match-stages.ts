import { findLoose } from "./fuzzy.js";
import { constantShift, type IndentShift, isBlank, leadingWhitespace, NO_SHIFT } from "./indentation.js";

/**
 * Locating a model's lines in a file, in stages from strict to loose. Each stage looks at the whole
 * file; the first stage with a candidate decides. Several candidates in one stage is ambiguous and
 * nothing looser is tried, so an edit never lands on a guess between places.
 *
 * - `exact`: the lines are equal.
 * - `whitespace`: equal once trailing whitespace is ignored.
 * - `indentation`: equal but for a constant indentation offset (tabs and spaces normalised).
 * - `line-trimmed`: equal once each line is trimmed (irregular indentation).
 * - `anchors`: 3+ lines; first and last lines equal when trimmed, the middle similar; unique.
 * - `fuzzy`: one region clearly most similar (>= 0.9, and well ahead of any other region).
 */
export type MatchStage = "exact" | "whitespace" | "indentation" | "line-trimmed" | "anchors" | "fuzzy";

export const ALL_STAGES: readonly MatchStage[] = [
  "exact",
  "whitespace",
  "indentation",
  "line-trimmed",
  "anchors",
  "fuzzy",
];

/** Where the lines matched: file lines `[start, end)`, and how they correspond. */
export interface LineMatch {
  start: number;
  end: number;
  stage: MatchStage;
  /** For each model line, the index within `[start, end)` of its file line, if any. */
  mapping: Array<number | undefined>;
  /** How the model's indentation maps onto the file's; undefined when it is the file's. */
  shift: IndentShift | undefined;
  /** Similarity of the region (1 for the strict stages). */
  similarity: number;
}

export type FindOutcome =
  | { kind: "found"; match: LineMatch }
  /** `starts` are 0-based file lines of the competing candidates. */
  | { kind: "ambiguous"; stage: MatchStage; starts: number[] }
  | { kind: "none" };

export interface FindOptions {
  /** Stages to try, in order. Default: all. */
  stages?: readonly MatchStage[];
  /**
   * Candidates starting at or after this line are preferred: one there wins over others before it.
   * With `firstAfter`, the first such candidate wins (an anchor line that names the place).
   */
  from?: number;
  firstAfter?: boolean;
  /** Only a match ending at the end of the file counts. */
  atEnd?: boolean;
}

type LineTest = (model: string, file: string) => boolean;

const STRICT_TESTS: Partial<Record<MatchStage, LineTest>> = {
  exact: (m, f) => m === f,
  whitespace: (m, f) => m.trimEnd() === f.trimEnd() && leadingWhitespace(m) === leadingWhitespace(f),
  indentation: (m, f) => m.trim() === f.trim(),
  "line-trimmed": (m, f) => m.trim() === f.trim(),
};

/** Finds `model` (non-empty) in `file`. */
export function findLines(
  file: readonly string[],
  model: readonly string[],
  options: FindOptions = {},
): FindOutcome {
  for (const stage of options.stages ?? ALL_STAGES) {
    const candidates =
      stage === "anchors" || stage === "fuzzy"
        ? findLoose(file, model, stage)
        : findStrict(file, model, stage);
    const usable = options.atEnd ? candidates.filter((c) => c.end === file.length) : candidates;
    if (usable.length === 0) continue;
    const chosen = choose(usable, options);
    if (chosen !== undefined) return { kind: "found", match: chosen };
    return { kind: "ambiguous", stage, starts: usable.map((c) => c.start) };
  }
  return { kind: "none" };
}

function choose(candidates: LineMatch[], options: FindOptions): LineMatch | undefined {
  if (candidates.length === 1) return candidates[0];
  if (options.from === undefined) return undefined;
  const from = options.from;
  const after = candidates.filter((c) => c.start >= from);
  if (after.length === 1 || (options.firstAfter && after.length > 0)) return after[0];
  return undefined;
}

const MAX_CANDIDATES = 50;

function findStrict(file: readonly string[], model: readonly string[], stage: MatchStage): LineMatch[] {
  const test = STRICT_TESTS[stage];
  if (test === undefined) return [];
  const n = model.length;
  const found: LineMatch[] = [];
  for (let start = 0; start + n <= file.length && found.length < MAX_CANDIDATES; start++) {
    let ok = true;
    for (let k = 0; k < n && ok; k++)
      ok = test(model[k]!, file[start + k]!) || bothBlank(stage, model[k]!, file[start + k]!);
    if (!ok) continue;
    const match = strictMatch(file, model, start, stage);
    if (match !== undefined) found.push(match);
  }
  return found;
}

function bothBlank(stage: MatchStage, model: string, file: string): boolean {
  return stage !== "exact" && isBlank(model) && isBlank(file);
}

function strictMatch(
  file: readonly string[],
  model: readonly string[],
  start: number,
  stage: MatchStage,
): LineMatch | undefined {
  const window = file.slice(start, start + model.length);
  const mapping = model.map((_, k) => k);
  let shift: IndentShift | undefined;
  if (stage === "indentation" || stage === "line-trimmed") {
    const pairs = model.map((m, k) => [m, window[k]!] as const);
    const constant = constantShift(pairs, window);
    // A constant offset is an `indentation` match; without one it is only `line-trimmed`.
    if ((stage === "indentation") !== (constant !== undefined)) return undefined;
    if (stage === "indentation" && sameIndentation(pairs)) return undefined;
    shift = constant ?? firstLineShift(pairs, window);
  }
  return { start, end: start + model.length, stage, mapping, shift, similarity: 1 };
}

function sameIndentation(pairs: ReadonlyArray<readonly [string, string]>): boolean {
  return pairs.every(([m, f]) => isBlank(m) || leadingWhitespace(m) === leadingWhitespace(f));
}

/** For irregular indentation: new lines follow the offset of the first non-blank line. */
function firstLineShift(
  pairs: ReadonlyArray<readonly [string, string]>,
  window: readonly string[],
): IndentShift {
  const first = pairs.find(([m, f]) => !isBlank(m) && !isBlank(f));
  return (first && constantShift([first], window)) ?? NO_SHIFT;
}

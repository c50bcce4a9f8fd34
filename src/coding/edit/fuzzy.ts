import { isBlank, likelyShift } from "./indentation.js";
import type { LineMatch } from "./match-stages.js";
import { lcsTable } from "./merge.js";

/**
 * The loose stages: `anchors` (first and last lines equal when trimmed, the middle similar) and
 * `fuzzy` (one region clearly the most similar). Both return every competing candidate, so the
 * caller refuses when there is more than one. Regions may be up to two lines shorter or longer
 * than the model's lines, for a line the model left out or added.
 */

/** A fuzzy match needs this similarity... */
export const FUZZY_THRESHOLD = 0.9;
/** ...and this lead over the best region elsewhere. */
export const FUZZY_MARGIN = 0.1;
/** An anchors match needs this similarity between the middle lines. */
export const ANCHOR_MIDDLE_THRESHOLD = 0.5;
const MAX_SIZE_DELTA = 2;
const MAX_FUZZY_LINES = 60;
const MAX_FUZZY_WINDOWS = 400;

const norm = (line: string) => line.trim().replace(/\s+/g, " ");

/** Normalised text of the non-blank lines, for similarity. */
export function blockText(lines: readonly string[]): string {
  return lines
    .filter((line) => !isBlank(line))
    .map(norm)
    .join("\n");
}

/** 1 - Levenshtein distance / length of the longer text; 1 for two empty texts. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  return 1 - levenshtein(a, b) / longer;
}

export function levenshtein(a: string, b: string): number {
  if (a.length < b.length) [a, b] = [b, a];
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** The non-blank span of the model's lines: `[first, last]`, or undefined when all are blank. */
function span(model: readonly string[]): [number, number] | undefined {
  const first = model.findIndex((line) => !isBlank(line));
  if (first === -1) return undefined;
  let last = model.length - 1;
  while (isBlank(model[last]!)) last--;
  return [first, last];
}

/** Window sizes to try, the model's own size first. */
function sizes(n: number): number[] {
  const out = [n];
  for (let d = 1; d <= MAX_SIZE_DELTA; d++) out.push(n - d, n + d);
  return out.filter((size) => size >= 1);
}

export function findLoose(
  file: readonly string[],
  model: readonly string[],
  stage: "anchors" | "fuzzy",
): LineMatch[] {
  const bounds = span(model);
  if (bounds === undefined) return [];
  const core = model.slice(bounds[0], bounds[1] + 1);
  const found = stage === "anchors" ? anchorWindows(file, core) : fuzzyWindows(file, core);
  return found.map(({ start, size, score }) => toMatch(file, model, start, size, stage, score));
}

interface Window {
  start: number;
  size: number;
  score: number;
}

function anchorWindows(file: readonly string[], core: readonly string[]): Window[] {
  if (core.length < 3) return [];
  const first = norm(core[0]!);
  const last = norm(core[core.length - 1]!);
  const middle = blockText(core.slice(1, -1));
  const found: Window[] = [];
  for (let start = 0; start < file.length; start++) {
    if (norm(file[start]!) !== first) continue;
    let best: Window | undefined;
    for (const size of sizes(core.length)) {
      const end = start + size - 1;
      if (size < 3 || end >= file.length || norm(file[end]!) !== last) continue;
      const score = similarity(middle, blockText(file.slice(start + 1, end)));
      if (score >= ANCHOR_MIDDLE_THRESHOLD && (best === undefined || score > best.score))
        best = { start, size, score };
    }
    if (best !== undefined) found.push(best);
  }
  return found;
}

function fuzzyWindows(file: readonly string[], core: readonly string[]): Window[] {
  if (core.length > MAX_FUZZY_LINES) return [];
  const wanted = [...new Set(core.filter((line) => !isBlank(line)).map(norm))];
  const wantedBigrams = wanted.map(bigrams);
  const exact = new Set(wanted);
  const hits = new Int32Array(file.length + 1);
  for (let i = 0; i < file.length; i++) {
    const line = norm(file[i]!);
    const hit = exact.has(line) || (line.length > 0 && isNearLine(bigrams(line), wantedBigrams));
    hits[i + 1] = hits[i]! + (hit ? 1 : 0);
  }
  const needed = Math.max(1, Math.ceil(wanted.length / 2));
  const plausible: Window[] = [];
  for (const size of sizes(core.length)) {
    for (let start = 0; start + size <= file.length; start++) {
      const count = hits[start + size]! - hits[start]!;
      if (count >= needed) plausible.push({ start, size, score: count });
    }
  }
  plausible.sort((a, b) => b.score - a.score);
  const text = blockText(core);
  const scored = plausible
    .slice(0, MAX_FUZZY_WINDOWS)
    .map((w) => ({ ...w, score: similarity(text, blockText(file.slice(w.start, w.start + w.size))) }));
  let best: Window | undefined;
  for (const w of scored) if (best === undefined || w.score > best.score) best = w;
  if (best === undefined || best.score < FUZZY_THRESHOLD) return [];
  const winner = best;
  const overlaps = (w: Window) => w.start < winner.start + winner.size && winner.start < w.start + w.size;
  let runnerUp: Window | undefined;
  for (const w of scored)
    if (!overlaps(w) && (runnerUp === undefined || w.score > runnerUp.score)) runnerUp = w;
  if (runnerUp !== undefined && winner.score - runnerUp.score < FUZZY_MARGIN) return [winner, runnerUp];
  return [winner];
}

/** Near enough for a window to be worth scoring: Dice similarity of character pairs >= 0.7. */
const NEAR_LINE = 0.7;

function bigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 2 <= text.length; i++) out.add(text.slice(i, i + 2));
  if (text.length === 1) out.add(text);
  return out;
}

function isNearLine(line: Set<string>, wanted: readonly Set<string>[]): boolean {
  for (const other of wanted) {
    let common = 0;
    for (const pair of line) if (other.has(pair)) common++;
    if ((2 * common) / (line.size + other.size) >= NEAR_LINE) return true;
  }
  return false;
}

/** A loose window as a match: model lines aligned to file lines by equal trimmed text, gaps paired in order. */
function toMatch(
  file: readonly string[],
  model: readonly string[],
  start: number,
  size: number,
  stage: "anchors" | "fuzzy",
  score: number,
): LineMatch {
  const window = file.slice(start, start + size);
  const mapping = alignLines(model, window);
  const pairs = mapping.flatMap((at, s) => (at === undefined ? [] : [[model[s]!, window[at]!] as const]));
  return { start, end: start + size, stage, mapping, shift: likelyShift(pairs, window), similarity: score };
}

/** For each model line, the window line it corresponds to. */
export function alignLines(model: readonly string[], window: readonly string[]): Array<number | undefined> {
  const a = model.map(norm);
  const b = window.map(norm);
  const table = lcsTable(a, b, (x, y) => x === y);
  const mapping: Array<number | undefined> = new Array(model.length).fill(undefined);
  let i = 0;
  let j = 0;
  let gapI = 0;
  let gapJ = 0;
  const closeGap = () => {
    if (i - gapI === j - gapJ) for (let k = 0; k < i - gapI; k++) mapping[gapI + k] = gapJ + k;
  };
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      closeGap();
      mapping[i++] = j++;
      gapI = i;
      gapJ = j;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  i = a.length;
  j = b.length;
  closeGap();
  return mapping;
}

import { blockText, similarity } from "./fuzzy.js";
import { isBlank } from "./indentation.js";

/**
 * The file region most like a model's lines, shown with line numbers when they did not match,
 * so the model can see what the file really says.
 */

const MAX_WINDOWS = 300;
const MAX_SHOWN_LINES = 20;

/** 0-based start and size of the most similar region, or undefined when nothing is close. */
export function closestRegion(
  file: readonly string[],
  model: readonly string[],
): { start: number; size: number; score: number } | undefined {
  const wanted = new Set(model.filter((line) => !isBlank(line)).map((line) => line.trim()));
  if (wanted.size === 0 || file.length === 0) return undefined;
  const size = Math.min(model.length, file.length);
  const hits = new Int32Array(file.length + 1);
  for (let i = 0; i < file.length; i++) hits[i + 1] = hits[i]! + (wanted.has(file[i]!.trim()) ? 1 : 0);
  const starts: Array<{ start: number; count: number }> = [];
  for (let start = 0; start + size <= file.length; start++) {
    const count = hits[start + size]! - hits[start]!;
    if (count > 0) starts.push({ start, count });
  }
  starts.sort((a, b) => b.count - a.count || a.start - b.start);
  const text = blockText(model).slice(0, 2000);
  let best: { start: number; size: number; score: number } | undefined;
  for (const { start } of starts.slice(0, MAX_WINDOWS)) {
    const score = similarity(text, blockText(file.slice(start, start + size)).slice(0, 2000));
    if (best === undefined || score > best.score) best = { start, size, score };
  }
  return best;
}

/** Lines `[start, start + size)` numbered like read_file shows them. */
export function numberedLines(file: readonly string[], start: number, size: number): string {
  const end = Math.min(file.length, start + Math.min(size, MAX_SHOWN_LINES));
  const width = String(end).length;
  return file
    .slice(start, end)
    .map((line, i) => `${String(start + i + 1).padStart(width)} | ${line}`)
    .join("\n");
}

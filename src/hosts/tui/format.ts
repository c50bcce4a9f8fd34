import { promptTokens, type Usage } from "../../protocol/index.js";

/** Share of the input served from the prompt cache, 0-100. */
export function cacheHitPercent(usage: Usage): number {
  const prompt = promptTokens(usage);
  return prompt === 0 ? 0 : Math.round((usage.cacheReadTokens / prompt) * 100);
}

/** Terminal rows a line takes at `width` columns (long lines wrap). */
export const rowsOf = (line: string, width: number) =>
  Math.max(1, Math.ceil(line.length / Math.max(1, width)));

/** The last lines of `text` that fit `maxRows` rows, and how many were left out above them. */
export function tailLines(
  text: string,
  maxRows: number,
  width = Number.POSITIVE_INFINITY,
): { lines: string[]; hidden: number } {
  const lines = text.split("\n");
  const count = tailCount(lines, maxRows, width, rowsOf);
  return { lines: lines.slice(lines.length - count), hidden: lines.length - count };
}

/** How many of the last `lines` fit `maxRows` rows (at least one). */
export function tailCount<T>(
  lines: readonly T[],
  maxRows: number,
  width: number,
  rowsOfLine: (line: T, width: number) => number,
): number {
  let rows = 0;
  let count = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    rows += rowsOfLine(lines[i]!, width);
    if (rows > maxRows && count > 0) break;
    count++;
  }
  return count;
}

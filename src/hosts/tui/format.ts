import type { Usage } from "../../protocol/index.js";

/** 1234 → "1.2k", 1234567 → "1.23M". */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(2)}M`;
}

/** Dollars with enough digits to see small costs: $0.0042, $0.12, $3.40. */
export function formatCost(dollars: number): string {
  return `$${dollars < 1 ? dollars.toFixed(4) : dollars.toFixed(2)}`;
}

/** Everything a request sent: uncached input plus cache reads and writes. */
export function promptTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

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

import type { Usage } from "./ui-message.js";

/**
 * How token counts and costs read, the same in every host: 1234 → "1.2k", 1234567 → "1.23M".
 */
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

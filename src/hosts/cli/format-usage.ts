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

/**
 * One line of usage: tokens in (and how much of it came from the cache), tokens out, and the
 * cost when the model's prices are known.
 */
export function formatUsage(usage: Usage): string {
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const parts = [`${formatTokens(input)} in`];
  if (input > 0 && usage.cacheReadTokens > 0) {
    parts.push(`${Math.round((usage.cacheReadTokens / input) * 100)}% from cache`);
  }
  parts.push(`${formatTokens(usage.outputTokens)} out`);
  if (usage.costUsd !== undefined) parts.push(formatCost(usage.costUsd));
  return `Tokens: ${parts.join(" · ")}`;
}

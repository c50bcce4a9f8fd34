import { formatCost, formatTokens, promptTokens, type Usage } from "../../protocol/index.js";

/**
 * One line of usage: tokens in (and how much of it came from the cache), tokens out, and the
 * cost when the model's prices are known.
 */
export function formatUsage(usage: Usage): string {
  const input = promptTokens(usage);
  const parts = [`${formatTokens(input)} in`];
  if (input > 0 && usage.cacheReadTokens > 0) {
    parts.push(`${Math.round((usage.cacheReadTokens / input) * 100)}% from cache`);
  }
  parts.push(`${formatTokens(usage.outputTokens)} out`);
  if (usage.costUsd !== undefined) parts.push(formatCost(usage.costUsd));
  return `Tokens: ${parts.join(" · ")}`;
}

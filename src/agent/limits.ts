import type { PricedUsage } from "./task-util.js";

/** What a task may spend before it pauses (interactive) or stops (print mode). */
export interface TaskLimits {
  /** Input and output tokens (cache reads count a tenth: they cost about that much). */
  tokens?: number;
  /** US dollars, when the model's prices are known. */
  costUsd?: number;
  /** Model requests. */
  turns?: number;
}

/** The tokens a budget counts: cache reads are cheap, so they count a tenth. */
export function budgetTokens(usage: PricedUsage): number {
  return (
    usage.inputTokens + usage.cacheWriteTokens + usage.outputTokens + Math.round(usage.cacheReadTokens / 10)
  );
}

/** The first limit the task has reached, described for the person; undefined while within all. */
export function limitReached(limits: TaskLimits, usage: PricedUsage, turns: number): string | undefined {
  if (limits.turns !== undefined && turns >= limits.turns) {
    return `The task reached its limit of ${limits.turns} model requests.`;
  }
  if (limits.tokens !== undefined && budgetTokens(usage) >= limits.tokens) {
    return `The task reached its token budget (${limits.tokens.toLocaleString("en-US")} tokens).`;
  }
  if (limits.costUsd !== undefined && (usage.costUsd ?? 0) >= limits.costUsd) {
    return `The task reached its cost budget ($${limits.costUsd.toFixed(2)}; spent $${(usage.costUsd ?? 0).toFixed(2)}).`;
  }
  return undefined;
}

/**
 * The limits after the person chose to go on: each limit that was reached is extended by its
 * original size (another budget's worth), so the task pauses again after spending as much again.
 */
export function extendedLimits(
  limits: TaskLimits,
  original: TaskLimits,
  usage: PricedUsage,
  turns: number,
): TaskLimits {
  const next = { ...limits };
  if (next.turns !== undefined && original.turns !== undefined && turns >= next.turns)
    next.turns = turns + original.turns;
  if (next.tokens !== undefined && original.tokens !== undefined && budgetTokens(usage) >= next.tokens) {
    next.tokens = budgetTokens(usage) + original.tokens;
  }
  if (next.costUsd !== undefined && original.costUsd !== undefined && (usage.costUsd ?? 0) >= next.costUsd) {
    next.costUsd = (usage.costUsd ?? 0) + original.costUsd;
  }
  return next;
}

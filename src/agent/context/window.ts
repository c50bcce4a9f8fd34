import type { ModelInfo } from "../../llm/types.js";

export interface UsableWindowOptions {
  /** Tokens kept free for the reply. Default: the model's max output, at most 20% of the window. */
  reservedOutput?: number;
  /** Tokens kept free for the error of token estimates. Default: 5% of the window. */
  safetyMargin?: number;
  /** Fraction of the usable window at which the history is compacted. Default 0.8. */
  threshold?: number;
}

/** How much of a model's context window a request may fill, in tokens. */
export interface UsableWindow {
  contextWindow: number;
  reservedOutput: number;
  safetyMargin: number;
  /** What a request (system prompt, tools and messages) may use: the window less the two reserves. */
  usable: number;
  /** A request estimated above this is compacted before it is sent. */
  threshold: number;
}

export const DEFAULT_THRESHOLD = 0.8;

/**
 * The part of the model's window a request may fill. A reply needs room beside the prompt, but a
 * model whose max output is most of its window (64k of 200k) would leave little for the history if
 * all of it were reserved; replies that long are rare, so at most a fifth of the window is kept.
 */
export function usableWindow(
  info: Pick<ModelInfo, "contextWindow" | "maxOutputTokens">,
  options: UsableWindowOptions = {},
): UsableWindow {
  const contextWindow = info.contextWindow;
  const reservedOutput =
    options.reservedOutput ?? Math.min(info.maxOutputTokens, Math.floor(contextWindow * 0.2));
  const safetyMargin = options.safetyMargin ?? Math.floor(contextWindow * 0.05);
  const fraction = options.threshold ?? DEFAULT_THRESHOLD;
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`threshold must be in (0, 1], got ${fraction}`);
  const usable = Math.max(1, contextWindow - reservedOutput - safetyMargin);
  return { contextWindow, reservedOutput, safetyMargin, usable, threshold: Math.floor(usable * fraction) };
}

const formatTokens = (n: number) => Math.round(n).toLocaleString("en-US");

/** The line that tells the model how full its context is: `Context: 41,200 / 160,000 tokens (26%)`. */
export function tokenMeter(tokens: number, window: Pick<UsableWindow, "usable">): string {
  const percent = Math.round((tokens / window.usable) * 100);
  return `Context: ${formatTokens(tokens)} / ${formatTokens(window.usable)} tokens (${percent}%)`;
}

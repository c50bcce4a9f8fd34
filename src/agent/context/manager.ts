/**
 * The context manager: before each request, the history to send. Duplicate reads go first; when
 * the request would still pass the threshold, the older turns are summarised (with the model's
 * own request plus one instruction, so the prompt cache holds); when a summary cannot be had,
 * the history is truncated. It never edits the history it is given: it returns a new one.
 */
import type { LlmMessage, LlmRequest, LlmToolDefinition, LlmUsage, ModelInfo } from "../../llm/types.js";
import { compactedHistory, planCompaction, summaryMessage, summaryRequest } from "./compaction.js";
import {
  type CountedRequest,
  countRatio,
  estimateMessageTokens,
  estimateNextRequest,
  estimateTextTokens,
  estimateToolTokens,
} from "./estimate.js";
import { createReadDeduplicator, DEFAULT_READ_TOOLS } from "./read-dedupe.js";
import { cutMiddle, fitToolOutputs } from "./shorten.js";
import { truncateToFit, validCuts } from "./truncate.js";
import {
  DEFAULT_THRESHOLD,
  tokenMeter,
  type UsableWindow,
  type UsableWindowOptions,
  usableWindow,
} from "./window.js";

export interface ContextManagerOptions extends UsableWindowOptions {
  info: Pick<ModelInfo, "contextWindow" | "maxOutputTokens">;
  /**
   * Runs the summary request (through the caller's usual retrying request path) and returns the
   * reply's text. Undefined or empty when no summary could be had: the history is truncated
   * instead. A rejection (an abort) propagates out of `prepare`.
   */
  summarize(request: LlmRequest): Promise<string | undefined>;
  /**
   * After a compaction the request is at most this fraction of the usable window. Default 0.4,
   * half the default threshold: the other half is room to grow before the next compaction.
   */
  target?: number;
  /** Tools whose results are file reads, for duplicate-read removal. Default `read_file`. */
  readTools?: readonly string[];
  /**
   * `lazy` (default): duplicate reads are looked for only when the request would pass the
   * threshold, and the replacements then stay as they are until the next time; so the history
   * sent is not rewritten (and the prompt cache not lost) on every repeated read. `eager`: every
   * request.
   */
  dedupe?: "lazy" | "eager";
}

export interface PrepareContext {
  system: string;
  tools: readonly LlmToolDefinition[];
  /** The usage reported for the request sent with the previous `prepare`'s history, if any. */
  lastUsage?: LlmUsage;
  /** Compact even below the threshold, keeping only the latest turn beside the summary (`/compact`). */
  force?: boolean;
  /** What the summary should keep (`/compact <focus>`). */
  focus?: string;
  /**
   * The provider refused the previous request as too long: this prepare compacts, and from now
   * on the usable window is at most 90% of that request's estimate.
   */
  overflowed?: boolean;
}

export interface Compaction {
  kind: "summary" | "truncation";
  /** Messages of the given history that are not in the new one. */
  removed: number;
  summaryTokens?: number;
  summary?: string;
}

export interface PreparedContext {
  /**
   * The messages to send. Without `compacted`, a view of the history (older duplicate reads
   * replaced) not to be stored; with it, the new active history, to be stored as a compaction.
   */
  history: LlmMessage[];
  /** The estimate of the request: system prompt, tools and `history`. */
  tokens: number;
  compacted?: Compaction;
  /** Older copies of duplicate reads that this prepare replaced (when it looked for them). */
  deduplicated?: number;
}

/** The sizes one `prepare` works with. Budgets are in the provider's tokens. */
interface Sizes {
  fixedTokens: number;
  counted: CountedRequest | undefined;
  /** Provider tokens per estimated token. */
  ratio: number;
  /** No request may be larger (the summary request included). */
  limit: number;
  /** The size a compacted request aims at. */
  target: number;
}

export function createContextManager(options: ContextManagerOptions) {
  let window: UsableWindow = usableWindow(options.info, options);
  const thresholdFraction = options.threshold ?? DEFAULT_THRESHOLD;
  const targetFraction = options.target ?? 0.4;
  const deduplicate = createReadDeduplicator(options.readTools ?? DEFAULT_READ_TOOLS);
  /** Reads up to and including this message take part in duplicate removal (lazy mode). */
  let horizon: LlmMessage | undefined;
  let last: { messages: LlmMessage[]; fixedTokens: number; tokens: number } | undefined;
  let ratio = 1;
  let system = { text: "", tokens: 0 };

  const fixedTokensOf = (context: PrepareContext) => {
    if (system.text !== context.system) {
      system = { text: context.system, tokens: estimateTextTokens(context.system) };
    }
    return system.tokens + estimateToolTokens(context.tools);
  };

  const horizonEnd = (history: readonly LlmMessage[]) => {
    if (options.dedupe === "eager") return history.length;
    return horizon === undefined ? 0 : history.lastIndexOf(horizon) + 1;
  };

  const summaryBudget = () => Math.min(4000, Math.max(500, Math.floor(window.usable * 0.08)));

  /** The result, remembered as the request about to be sent. */
  const sending = (
    history: LlmMessage[],
    tokens: number,
    sizes: Sizes,
    extra: Partial<PreparedContext> = {},
  ): PreparedContext => {
    last = { messages: history, fixedTokens: sizes.fixedTokens, tokens };
    return { history, tokens, ...extra };
  };

  /**
   * The compacted history: the summary in the first message, then the recent turns within what
   * the target leaves (only the latest turn when `latestOnly`); their outputs are shortened if
   * even the latest turn is too long. The pure helpers count in estimated tokens, hence `/ ratio`.
   */
  function afterSummary(
    history: LlmMessage[],
    summary: { text: string; covered: number },
    sizes: Sizes,
    latestOnly: boolean,
  ) {
    const text = cutMiddle(summary.text, summaryBudget() * 4 * 2);
    const target = Math.floor(sizes.target / sizes.ratio);
    const head = estimateMessageTokens(summaryMessage(history[0]!, text, 0));
    const plan = planCompaction(history, latestOnly ? 0 : target - sizes.fixedTokens - head, summary.covered);
    if (!plan) return undefined;
    const fitted = fitToolOutputs(compactedHistory(history, plan, text), target, sizes.fixedTokens, 1);
    return { history: fitted.messages, tokens: Math.ceil(fitted.tokens * sizes.ratio), plan, text };
  }

  function truncate(history: LlmMessage[], sizes: Sizes): PreparedContext {
    const cut = truncateToFit(history, Math.floor(sizes.target / sizes.ratio), sizes.fixedTokens);
    return sending(cut.history, Math.ceil(cut.tokens * sizes.ratio), sizes, {
      compacted: { kind: "truncation", removed: cut.removed },
    });
  }

  async function compact(
    view: LlmMessage[],
    deduped: LlmMessage[],
    context: PrepareContext,
    sizes: Sizes,
  ): Promise<PreparedContext> {
    if (!validCuts(deduped).some((k) => k >= 2)) {
      // Nothing older than the latest turn to replace: only its outputs can be shortened.
      const fitted = fitToolOutputs(deduped, Math.floor(sizes.limit / sizes.ratio), sizes.fixedTokens, 1);
      const changed = fitted.messages.some((message, i) => message !== deduped[i]);
      return sending(fitted.messages, Math.ceil(fitted.tokens * sizes.ratio), sizes, {
        ...(changed ? { compacted: { kind: "truncation" as const, removed: 0 } } : {}),
      });
    }
    const asked = summaryRequestWithin(view, deduped, context, sizes);
    if (!asked) return truncate(deduped, sizes);
    const text = (await options.summarize(asked.request))?.trim();
    if (!text) return truncate(deduped, sizes);
    // Asked for by the person (`/compact`): the summary replaces all but the latest turn.
    const result = afterSummary(deduped, { text, covered: asked.covered }, sizes, context.force === true);
    if (!result || result.tokens > sizes.limit) return truncate(deduped, sizes);
    return sending(result.history, result.tokens, sizes, {
      compacted: {
        kind: "summary",
        removed: result.plan.removed,
        summaryTokens: estimateTextTokens(result.text),
        summary: result.text,
      },
    });
  }

  /**
   * The summary request, within the limit, and how many messages of the history it covers. In
   * order: on the history as it will be sent; on the request sent last (when the new turn made the
   * history too long, the cache still serves all of it, and the new turn is kept after the summary);
   * on the deduplicated history; with tool outputs cut short. Undefined when nothing fits.
   */
  function summaryRequestWithin(
    view: LlmMessage[],
    deduped: LlmMessage[],
    context: PrepareContext,
    sizes: Sizes,
  ): { request: LlmRequest; covered: number } | undefined {
    const options = { focus: context.focus, maxWords: Math.round((summaryBudget() * 0.75) / 50) * 50 };
    const sent =
      last && last.messages.length < view.length && last.messages.every((m, i) => m === view[i])
        ? [last.messages]
        : [];
    const bases = [view, ...sent, deduped];
    for (const base of bases) {
      const request = summaryRequest(base, context.system, context.tools, options);
      const tokens = estimateNextRequest(request.messages, sizes.fixedTokens, sizes.counted, sizes.ratio);
      if (tokens <= sizes.limit) return { request, covered: base.length };
    }
    const prompt = estimateMessageTokens(summaryRequest([], "", [], options).messages[0]!);
    const limit = Math.floor(sizes.limit / sizes.ratio) - prompt;
    const fitted = fitToolOutputs(deduped, limit, sizes.fixedTokens, 1);
    if (!fitted.fits) return undefined;
    return {
      request: summaryRequest(fitted.messages, context.system, context.tools, options),
      covered: deduped.length,
    };
  }

  function sizesFor(context: PrepareContext): Sizes {
    const counted =
      last && context.lastUsage && !context.overflowed
        ? { messages: last.messages, fixedTokens: last.fixedTokens, usage: context.lastUsage }
        : undefined;
    if (counted) ratio = countRatio(counted);
    if (context.overflowed && last) {
      // The model's real window is smaller than the catalogue says (or the reply reserve too
      // small): from now on, requests stay under 90% of the one refused.
      const usable = Math.min(window.usable, Math.floor(last.tokens * 0.9));
      window = { ...window, usable, threshold: Math.floor(usable * thresholdFraction) };
    }
    const target = Math.floor(window.usable * targetFraction);
    return { fixedTokens: fixedTokensOf(context), counted, ratio, limit: window.usable, target };
  }

  return {
    /** The window requests are kept within (smaller after the provider refused one as too long). */
    get window(): UsableWindow {
      return window;
    },
    /**
     * The history to send next, estimated before it is sent; compacted when the estimate passes
     * the threshold (or when forced). `history` is not changed.
     */
    async prepare(history: readonly LlmMessage[], context: PrepareContext): Promise<PreparedContext> {
      const sizes = sizesFor(context);
      const estimate = (messages: readonly LlmMessage[]) =>
        estimateNextRequest(messages, sizes.fixedTokens, sizes.counted, sizes.ratio);
      const view = deduplicate(history, horizonEnd(history)).history;
      const tokens = estimate(view);
      const compactAnyway = context.force || context.overflowed;
      if (!compactAnyway && tokens <= window.threshold) return sending(view, tokens, sizes);
      // Look for duplicate reads in the whole history before compacting.
      horizon = history.at(-1);
      const full = deduplicate(history);
      const dedupedTokens = estimate(full.history);
      if (!compactAnyway && dedupedTokens <= window.threshold) {
        return sending(full.history, dedupedTokens, sizes, { deduplicated: full.replaced });
      }
      const result = await compact(view, full.history, context, sizes);
      return full.replaced > 0 ? { ...result, deduplicated: full.replaced } : result;
    },
    /** The token meter line for the model, for the last prepared request (or `tokens`). */
    meter(tokens = last?.tokens ?? 0): string {
      return tokenMeter(tokens, window);
    },
  };
}

export type ContextManager = ReturnType<typeof createContextManager>;

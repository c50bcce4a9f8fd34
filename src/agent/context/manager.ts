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
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateNextRequest,
  estimateTextTokens,
  estimateToolTokens,
} from "./estimate.js";
import { createReadDeduplicator, DEFAULT_READ_TOOLS } from "./read-dedupe.js";
import { cutMiddle, fitToolOutputs } from "./shorten.js";
import { truncateToFit, validCuts } from "./truncate.js";
import { tokenMeter, type UsableWindow, type UsableWindowOptions, usableWindow } from "./window.js";

export interface ContextManagerOptions extends UsableWindowOptions {
  info: Pick<ModelInfo, "contextWindow" | "maxOutputTokens">;
  /**
   * Runs the summary request (through the caller's usual retrying request path) and returns the
   * reply's text. Undefined or empty when no summary could be had: the history is truncated
   * instead. A rejection (an abort) propagates out of `prepare`.
   */
  summarize(request: LlmRequest): Promise<string | undefined>;
  /** After a compaction the request is at most this fraction of the usable window. Default 0.5. */
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
   * The provider refused the previous request as too long: the estimate was low, so this
   * prepare compacts, aiming at 80% of that request's estimate.
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

export function createContextManager(options: ContextManagerOptions) {
  const window: UsableWindow = usableWindow(options.info, options);
  const targetFraction = options.target ?? 0.5;
  const deduplicate = createReadDeduplicator(options.readTools ?? DEFAULT_READ_TOOLS);
  /** Reads up to and including this message take part in duplicate removal (lazy mode). */
  let horizon: LlmMessage | undefined;
  let last: { messages: LlmMessage[]; fixedTokens: number; tokens: number } | undefined;
  let system = { text: "", tokens: 0 };

  const fixedTokensOf = (context: PrepareContext) => {
    if (system.text !== context.system)
      system = { text: context.system, tokens: estimateTextTokens(context.system) };
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
    fixedTokens: number,
    extra: Partial<PreparedContext> = {},
  ) => {
    last = { messages: history, fixedTokens, tokens };
    return { history, tokens, ...extra };
  };

  /**
   * The compacted history: the summary in the first message, then the recent turns within what
   * the target leaves (only the latest turn when `latestOnly`); their outputs are shortened if
   * even the latest turn is too long.
   */
  function afterSummary(
    history: LlmMessage[],
    summary: string,
    target: number,
    fixedTokens: number,
    latestOnly: boolean,
  ) {
    const maxSummaryChars = summaryBudget() * 4 * 2;
    const text = cutMiddle(summary, maxSummaryChars);
    const head = estimateMessageTokens(summaryMessage(history[0]!, text, 0));
    const plan = planCompaction(history, latestOnly ? 0 : target - fixedTokens - head);
    if (!plan) return undefined;
    const compacted = compactedHistory(history, plan, text);
    if (plan.fits)
      return { history: compacted, tokens: fixedTokens + estimateMessagesTokens(compacted), plan, text };
    const fitted = fitToolOutputs(compacted, target, fixedTokens, 1);
    return { history: fitted.messages, tokens: fitted.tokens, plan, text };
  }

  async function compact(
    view: LlmMessage[],
    deduped: LlmMessage[],
    context: PrepareContext,
    fixedTokens: number,
    limit: number,
  ): Promise<PreparedContext> {
    const target = Math.min(Math.floor(window.usable * targetFraction), limit);
    const truncate = () => {
      const cut = truncateToFit(deduped, target, fixedTokens);
      return sending(cut.history, cut.tokens, fixedTokens, {
        compacted: { kind: "truncation", removed: cut.removed },
      });
    };
    if (!validCuts(deduped).some((k) => k >= 2)) {
      // Nothing older than the latest turn to replace: only its outputs can be shortened.
      const fitted = fitToolOutputs(deduped, limit, fixedTokens, 1);
      const changed = fitted.messages.some((message, i) => message !== deduped[i]);
      return sending(fitted.messages, fitted.tokens, fixedTokens, {
        ...(changed ? { compacted: { kind: "truncation" as const, removed: 0 } } : {}),
      });
    }
    const request = summaryRequestWithin(view, deduped, context, fixedTokens, limit);
    if (!request) return truncate();
    const summary = (await options.summarize(request))?.trim();
    if (!summary) return truncate();
    // Asked for by the person (`/compact`): the summary replaces all but the latest turn.
    const result = afterSummary(deduped, summary, target, fixedTokens, context.force === true);
    if (!result || result.tokens > window.usable) return truncate();
    return sending(result.history, result.tokens, fixedTokens, {
      compacted: {
        kind: "summary",
        removed: result.plan.removed,
        summaryTokens: estimateTextTokens(result.text),
        summary: result.text,
      },
    });
  }

  /**
   * The summary request, within `limit`: built on the history as last sent when it fits (the
   * cache holds all of it), else on the deduplicated one, else with older tool outputs cut short.
   * Undefined when nothing fits.
   */
  function summaryRequestWithin(
    view: LlmMessage[],
    deduped: LlmMessage[],
    context: PrepareContext,
    fixedTokens: number,
    limit: number,
  ): LlmRequest | undefined {
    const counted = countedFor(context);
    const options = { focus: context.focus, maxWords: Math.round((summaryBudget() * 0.75) / 50) * 50 };
    for (const base of [view, deduped]) {
      const request = summaryRequest(base, context.system, context.tools, options);
      if (estimateNextRequest(request.messages, fixedTokens, counted) <= limit) return request;
    }
    const promptTokens = estimateMessageTokens(summaryRequest([], "", [], options).messages[0]!);
    const fitted = fitToolOutputs(deduped, limit - promptTokens, fixedTokens, 1);
    return fitted.fits ? summaryRequest(fitted.messages, context.system, context.tools, options) : undefined;
  }

  function countedFor(context: PrepareContext): CountedRequest | undefined {
    if (!last || !context.lastUsage || context.overflowed) return undefined;
    return { messages: last.messages, fixedTokens: last.fixedTokens, usage: context.lastUsage };
  }

  return {
    window,
    /**
     * The history to send next, estimated before it is sent; compacted when the estimate passes
     * the threshold (or when forced). `history` is not changed.
     */
    async prepare(history: readonly LlmMessage[], context: PrepareContext): Promise<PreparedContext> {
      const fixedTokens = fixedTokensOf(context);
      const counted = countedFor(context);
      const limit =
        context.overflowed && last ? Math.min(window.usable, Math.floor(last.tokens * 0.8)) : window.usable;
      const view = deduplicate(history, horizonEnd(history)).history;
      const tokens = estimateNextRequest(view, fixedTokens, counted);
      const compactAnyway = context.force || context.overflowed;
      if (!compactAnyway && tokens <= window.threshold) return sending(view, tokens, fixedTokens);
      // Look for duplicate reads in the whole history before compacting.
      horizon = history.at(-1);
      const full = deduplicate(history);
      const dedupedTokens = estimateNextRequest(full.history, fixedTokens, counted);
      if (!compactAnyway && dedupedTokens <= window.threshold) {
        return sending(full.history, dedupedTokens, fixedTokens, { deduplicated: full.replaced });
      }
      const result = await compact(view, full.history, context, fixedTokens, limit);
      return full.replaced > 0 ? { ...result, deduplicated: full.replaced } : result;
    },
    /** The token meter line for the model, for the last prepared request (or `tokens`). */
    meter(tokens = last?.tokens ?? 0): string {
      return tokenMeter(tokens, window);
    },
  };
}

export type ContextManager = ReturnType<typeof createContextManager>;

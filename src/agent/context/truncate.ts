/**
 * Deterministic truncation, the last resort: the first (task) message and the most recent turns
 * that fit, with whole tool-call/result pairs and alternating roles.
 */
import type { ContentBlock, LlmMessage } from "../../llm/types.js";
import { estimateMessagesTokens, estimateMessageTokens, estimateTextTokens } from "./estimate.js";
import { isTruncationNote, truncationNote } from "./prompts.js";
import { fitToolOutputs } from "./shorten.js";

/**
 * The indices `k` where the rest of the history (`history[k..]`) may follow the first message:
 * an assistant message (the first message is the user's), and no tool call before `k` whose
 * result is at or after `k`. Ascending; `1` (dropping nothing) is included when valid.
 */
export function validCuts(history: readonly LlmMessage[]): number[] {
  const callAt = new Map<string, number>();
  // blocked[k] > 0 (after a running sum): some call/result pair spans the cut at k.
  const blocked = new Int32Array(history.length + 1);
  history.forEach((message, j) => {
    for (const block of message.content) {
      if (block.type === "tool_call") callAt.set(block.id, j);
      if (block.type === "tool_result") {
        const c = callAt.get(block.callId);
        if (c !== undefined && c < j) {
          blocked[c + 1]!++;
          blocked[j + 1]!--;
        }
      }
    }
  });
  const cuts: number[] = [];
  let spans = 0;
  for (let k = 0; k < history.length; k++) {
    spans += blocked[k]!;
    if (k >= 1 && spans === 0 && history[k]!.role === "assistant") cuts.push(k);
  }
  return cuts;
}

/** Tokens of `history[k..]` for every k (one pass; each message's estimate is cached). */
export function suffixTokens(history: readonly LlmMessage[]): number[] {
  const sums = new Array<number>(history.length + 1).fill(0);
  for (let k = history.length - 1; k >= 0; k--) sums[k] = sums[k + 1]! + estimateMessageTokens(history[k]!);
  return sums;
}

export interface TruncationResult {
  history: LlmMessage[];
  /** Messages of the input not in the result. */
  removed: number;
  tokens: number;
  /** False when even the task and the latest turn, with outputs cut short, do not fit. */
  fits: boolean;
}

/**
 * The history cut to fit `limit` tokens (with `fixedTokens` for the system prompt and tools):
 * the first message, with a note of what was removed, and the longest run of recent turns that
 * fits. When even the latest turn does not fit, its tool outputs are shortened.
 */
export function truncateToFit(
  history: readonly LlmMessage[],
  limit: number,
  fixedTokens: number,
): TruncationResult {
  const first = history[0];
  if (first === undefined)
    return { history: [], removed: 0, tokens: fixedTokens, fits: fixedTokens <= limit };
  const task: ContentBlock[] = first.content.filter((block) => !isTruncationNote(block));
  const taskTokens = estimateMessageTokens({ ...first, content: task });
  const suffix = suffixTokens(history);
  const cuts = validCuts(history).filter((k) => k >= 2);
  const fitting = cuts.find(
    (k) => fixedTokens + taskTokens + estimateTextTokens(truncationNote(k - 1)) + suffix[k]! <= limit,
  );
  const keepFrom = fitting ?? cuts.at(-1) ?? 1;
  const removed = keepFrom - 1;
  const head: LlmMessage =
    removed > 0 ? { ...first, content: [...task, { type: "text", text: truncationNote(removed) }] } : first;
  const kept = [head, ...history.slice(keepFrom)];
  if (fitting !== undefined) {
    return { history: kept, removed, tokens: fixedTokens + estimateMessagesTokens(kept), fits: true };
  }
  const fitted = fitToolOutputs(kept, limit, fixedTokens, 1);
  return { history: fitted.messages, removed, tokens: fitted.tokens, fits: fitted.fits };
}

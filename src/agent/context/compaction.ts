/**
 * Compaction by summary. The summary is asked for with the request the model would have been
 * sent anyway plus one more instruction, so the provider's prompt cache serves everything but
 * that instruction; the summary then replaces the older turns.
 */
import type { ContentBlock, LlmMessage, LlmRequest, LlmToolDefinition } from "../../llm/types.js";
import { isSummaryBlock, isTruncationNote, summaryPrompt, summaryText } from "./prompts.js";
import { suffixTokens, validCuts } from "./truncate.js";

export interface SummaryRequestOptions {
  /** What the person asked the summary to keep (`/compact <focus>`). */
  focus?: string;
  maxWords?: number;
}

/**
 * The summary request: the same system prompt, tools and messages as the normal request, with
 * the summary instruction added at the end. It goes into the last message when that is the
 * user's (a copy whose content extends the original), so roles still alternate; otherwise it is
 * a new user message. Every earlier message is the same object as in `history`.
 */
export function summaryRequest(
  history: readonly LlmMessage[],
  system: string,
  tools: readonly LlmToolDefinition[],
  options: SummaryRequestOptions = {},
): LlmRequest {
  const prompt: ContentBlock = { type: "text", text: summaryPrompt(options) };
  const last = history.at(-1);
  const messages =
    last?.role === "user"
      ? [...history.slice(0, -1), { ...last, content: [...last.content, prompt] }]
      : [...history, { role: "user" as const, content: [prompt] }];
  return { system, tools: [...tools], messages };
}

export interface CompactionPlan {
  /** Index of the first message kept verbatim (an assistant message). */
  keepFrom: number;
  /** Messages replaced by the summary: `history[1..keepFrom)`. */
  removed: number;
  /** False when even the shortest run of recent turns is over the budget. */
  fits: boolean;
}

/**
 * Which turns a summary replaces: all but the first message and the longest run of recent turns
 * within `keepTokens` (starting at an assistant message, with whole call/result pairs). At least
 * one message is replaced and at least the latest turn is kept; when the summary saw only
 * `history[0..covered)`, everything from `covered` on is kept too. Undefined when the history is
 * too short for that.
 */
export function planCompaction(
  history: readonly LlmMessage[],
  keepTokens: number,
  covered = history.length,
): CompactionPlan | undefined {
  const cuts = validCuts(history).filter((k) => k >= 2 && k <= covered);
  if (cuts.length === 0) return undefined;
  const suffix = suffixTokens(history);
  const fitting = cuts.find((k) => suffix[k]! <= keepTokens);
  const keepFrom = fitting ?? cuts.at(-1)!;
  return { keepFrom, removed: keepFrom - 1, fits: fitting !== undefined };
}

/** The first message's own content: without the summary or notes of earlier compactions. */
export const taskContent = (first: LlmMessage): ContentBlock[] =>
  first.content.filter((block) => !isSummaryBlock(block) && !isTruncationNote(block));

/** The first message with the summary in place of any earlier one (it covers what they said). */
export function summaryMessage(first: LlmMessage, summary: string, removed: number): LlmMessage {
  return {
    ...first,
    content: [...taskContent(first), { type: "text", text: summaryText(summary, removed) }],
  };
}

/** The history after a compaction: the task with the summary, then the kept turns unchanged. */
export function compactedHistory(
  history: readonly LlmMessage[],
  plan: CompactionPlan,
  summary: string,
): LlmMessage[] {
  return [summaryMessage(history[0]!, summary, plan.removed), ...history.slice(plan.keepFrom)];
}

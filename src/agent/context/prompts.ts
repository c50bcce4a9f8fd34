/** Texts the context manager puts in front of the model. */
import type { ContentBlock } from "../../llm/types.js";

const SUMMARY_OPEN = "<conversation_summary>";
const TRUNCATION_OPEN = "[Context note:";

/** The request for a summary, appended to the history as it stands (see `summaryRequest`). */
export const summaryPrompt = (options: { focus?: string; maxWords?: number } = {}): string =>
  [
    "[Context compaction] The context window is nearly full, so the earlier turns of this conversation are about to be replaced by your summary of them.",
    "Do not call any tool now. Reply with the summary only, in plain text, under these headings:",
    "1. Goal: the task and every request the user made since, in their words where it matters.",
    "2. Decisions: what was decided and why, including approaches tried and rejected.",
    "3. Files: each file read, created or changed, with exact paths and what matters about each.",
    "4. Done: what is finished, and how it was checked.",
    "5. Left: what remains, including errors not yet fixed.",
    "6. Next step: the exact next action, with the command or the edit it needs.",
    options.focus?.trim() ? `Give the most room to: ${options.focus.trim()}` : "",
    options.maxWords ? `Keep it under about ${options.maxWords} words.` : "",
  ]
    .filter(Boolean)
    .join("\n");

/** The summary as the first message carries it after a compaction. */
export const summaryText = (summary: string, removed: number): string =>
  `${SUMMARY_OPEN}\nThe ${removed} earlier messages of this conversation were replaced by this summary to fit the context window; the most recent turns follow unchanged.\n\n${summary.trim()}\n</conversation_summary>\nContinue the task from the next step above. Re-read any file you need rather than relying on memory of earlier turns.`;

export const truncationNote = (removed: number): string =>
  `${TRUNCATION_OPEN} ${removed} earlier messages of this conversation were removed to fit the context window. Re-read any file you need rather than relying on memory of earlier turns.]`;

export const isSummaryBlock = (block: ContentBlock): boolean =>
  block.type === "text" && block.text.startsWith(SUMMARY_OPEN);

export const isTruncationNote = (block: ContentBlock): boolean =>
  block.type === "text" && block.text.startsWith(TRUNCATION_OPEN);

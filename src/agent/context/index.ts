export {
  type CompactionPlan,
  compactedHistory,
  planCompaction,
  type SummaryRequestOptions,
  summaryMessage,
  summaryRequest,
  taskContent,
} from "./compaction.js";
export {
  type CountedRequest,
  countRatio,
  estimateBlockTokens,
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateNextRequest,
  estimateTextTokens,
  estimateToolTokens,
  IMAGE_TOKENS,
  promptTokens,
} from "./estimate.js";
export {
  type Compaction,
  type ContextManager,
  type ContextManagerOptions,
  createContextManager,
  type PrepareContext,
  type PreparedContext,
} from "./manager.js";
export { summaryPrompt, summaryText, truncationNote } from "./prompts.js";
export {
  createReadDeduplicator,
  DEFAULT_READ_TOOLS,
  type DedupeResult,
  duplicateReadNote,
} from "./read-dedupe.js";
export {
  type ContextPartName,
  type ContextReport,
  type ContextReportInput,
  contextReport,
} from "./report.js";
export { cutMiddle, fitToolOutputs, shortenToolOutputs } from "./shorten.js";
export { type TruncationResult, truncateToFit, validCuts } from "./truncate.js";
export {
  DEFAULT_THRESHOLD,
  tokenMeter,
  type UsableWindow,
  type UsableWindowOptions,
  usableWindow,
} from "./window.js";

/**
 * What fills the context window, by part, for a host to show: the next request as the token
 * estimator sees it (the estimator the context manager budgets with), beside the provider's
 * count of the last request.
 */
import type { LlmMessage, LlmToolDefinition, LlmUsage } from "../../llm/types.js";
import type { ContextReport as HostContextReport } from "../../protocol/index.js";
import {
  estimateBlockTokens,
  estimateMessageTokens,
  estimateTextTokens,
  estimateToolTokens,
  promptTokens,
} from "./estimate.js";
import { isSummaryBlock } from "./prompts.js";
import { DEFAULT_READ_TOOLS } from "./read-dedupe.js";
import type { UsableWindow } from "./window.js";

/**
 * The parts of a request, disjoint:
 * - `system prompt`: without the tools' section (XML protocol);
 * - `tools`: the native tool definitions, or the tools' section of the system prompt;
 * - `user messages`: the person's messages and what travels with them (the task, environment
 *   details, notes);
 * - `assistant messages`: the model's replies (text, reasoning, tool calls);
 * - `tool results`: tool results other than file contents;
 * - `file reads`: tool results that are file contents read;
 * - `compaction summary`: what stands for older turns after a compaction.
 */
export type ContextPartName =
  | "system prompt"
  | "tools"
  | "user messages"
  | "assistant messages"
  | "tool results"
  | "file reads"
  | "compaction summary";

/** The protocol's report (see `ContextReportSchema`), with what the agent knows besides. */
export interface ContextReport extends HostContextReport {
  /** Estimated tokens of each part present (parts with none are left out), in the order above. */
  parts: Array<{ name: ContextPartName; tokens: number }>;
  /** A request estimated above this is compacted before it is sent. */
  compactAtTokens: number;
  /** What a request may fill: the window less the reply's reserve and a safety margin. */
  usableTokens: number;
  /** Messages in the active history. */
  messages: number;
}

export interface ContextReportInput {
  system: string;
  /** The tools' section of `system` (XML protocol): counted as tools, not as system prompt. */
  toolSection?: string;
  /** The native tool definitions offered (none in the XML protocol). */
  tools: readonly LlmToolDefinition[];
  toolProtocol: "native" | "xml";
  history: readonly LlmMessage[];
  window: UsableWindow;
  lastUsage?: LlmUsage;
  /** Tools whose results are file contents. Default `read_file`. */
  readTools?: readonly string[];
}

/** A tool result in the XML protocol (see `xmlResultBlocks`), with the tool's name. */
const XML_RESULT = /^\[([\w-]+)(?: for '.*')?\] (Result|Error):\n/;

export function contextReport(input: ContextReportInput): ContextReport {
  const readTools = new Set(input.readTools ?? DEFAULT_READ_TOOLS);
  const section = input.toolSection ? estimateTextTokens(input.toolSection) : 0;
  const tokens: Record<ContextPartName, number> = {
    "system prompt": Math.max(0, estimateTextTokens(input.system) - section),
    tools: input.toolProtocol === "native" ? estimateToolTokens(input.tools) : section,
    "user messages": 0,
    "assistant messages": 0,
    "tool results": 0,
    "file reads": 0,
    "compaction summary": 0,
  };
  const toolOf = new Map<string, string>();
  for (const message of input.history) {
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "tool_call") toolOf.set(block.id, block.name);
      tokens["assistant messages"] += estimateMessageTokens(message);
      continue;
    }
    let blocks = 0;
    /** The part an image belongs to: after an XML tool result, that result's (see `xmlResultBlocks`). */
    let resultPart: ContextPartName | undefined;
    for (const block of message.content) {
      const blockTokens = estimateBlockTokens(block);
      blocks += blockTokens;
      const xml = block.type === "text" ? XML_RESULT.exec(block.text) : null;
      let part: ContextPartName;
      if (block.type === "tool_result") {
        part =
          !block.isError && readTools.has(toolOf.get(block.callId) ?? "") ? "file reads" : "tool results";
      } else if (xml) {
        part = xml[2] === "Result" && readTools.has(xml[1]!) ? "file reads" : "tool results";
      } else if (block.type === "image" && resultPart) {
        part = resultPart;
      } else {
        part = isSummaryBlock(block) ? "compaction summary" : "user messages";
      }
      resultPart = xml || (block.type === "image" && resultPart) ? part : undefined;
      tokens[part] += blockTokens;
    }
    // Role markers and separators.
    tokens["user messages"] += estimateMessageTokens(message) - blocks;
  }
  const parts = (Object.keys(tokens) as ContextPartName[])
    .filter((name) => tokens[name] > 0)
    .map((name) => ({ name, tokens: tokens[name] }));
  return {
    parts,
    estimatedTokens: parts.reduce((sum, part) => sum + part.tokens, 0),
    ...(input.lastUsage ? { lastPromptTokens: promptTokens(input.lastUsage) } : {}),
    contextWindow: input.window.contextWindow,
    compactAtTokens: input.window.threshold,
    usableTokens: input.window.usable,
    messages: input.history.length,
  };
}

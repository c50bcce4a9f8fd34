import type { $ZodType } from "zod/v4/core";
import type { ImageBlock, LlmUsage, TextBlock } from "../llm/types.js";
import type { ApprovalCategory } from "./pipeline/tool-category.js";

/** Progress a running tool reports (e.g. command output as it arrives). */
export type ToolProgress = { type: "output"; text: string };

/** What a tool may ask of the task it runs in. Handlers never touch UI code directly. */
export interface ToolContext {
  readonly taskId: string;
  readonly callId: string;
  /** The name the model called (differs from the handler's name for MCP and subagent tools). */
  readonly toolName?: string;
  /** Aborted when the person aborts the task; tools must stop promptly. */
  readonly signal: AbortSignal;
  onProgress(progress: ToolProgress): void;
  /** Asks the person a question; resolves with their answer text. */
  askUser(question: string, options?: string[]): Promise<string>;
}

/**
 * The result of one tool call. `content` is what the model sees; `details` is typed data for
 * hosts. `isError` marks a failure the model can recover from. `completion` ends the task.
 */
export interface ToolResult<D = unknown> {
  content: string | Array<TextBlock | ImageBlock>;
  details?: D;
  isError?: boolean;
  completion?: { result: string };
  /** The conversation is to be replaced by this summary (manual compaction, `condense`). */
  condense?: { summary: string };
  /** Model tokens the call itself spent (a subagent's requests), added to the task's totals. */
  usage?: LlmUsage & { costUsd?: number };
}

/**
 * A tool: its schema (the single declaration of its input, from which the JSON Schema sent
 * to models is generated), whether it changes anything, and its handler.
 * Contract: `execute` may throw; the executor turns a throw into an error result.
 */
export interface ToolHandler<I = any, D = unknown> {
  readonly name: string;
  /** Model-facing description. */
  readonly description: string;
  readonly inputSchema: $ZodType<I>;
  /** True when a call changes files, processes or anything outside Bowline. When unsure: true. */
  readonly mutates: boolean;
  /** Only for PLAN MODE (presenting a plan): refused in act mode. */
  readonly planModeOnly?: boolean;
  /** Which approval setting governs its calls. Default: `mutates ? "edit" : "read"`. */
  readonly category?: ApprovalCategory;
  /** The paths a call reads or writes, for the inside/outside-workspace rules. Default: `input.path`. */
  approvalPaths?(input: I): string[];
  /**
   * Loads what judging a call takes (the shell grammar, for commands); awaited before each
   * call's plan-mode and approval checks. When it fails the checks go on without it, as strict
   * as they are for what they cannot read.
   */
  prepare?(): Promise<void>;
  /** One line for hosts, e.g. `read_file src/a.ts`. */
  summarize(input: I): string;
  execute(input: I, ctx: ToolContext): Promise<ToolResult<D>>;
}

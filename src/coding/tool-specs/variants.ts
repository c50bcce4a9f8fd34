import type { PromptVariant } from "../../agent/tool-spec.js";

export type VariantId = "generic" | "next-gen" | "native" | "compact" | "gpt";

/** A prompt variant of the coding agent: its tools, protocol and system prompt flavour. */
export interface CodingPromptVariant extends PromptVariant {
  id: VariantId;
  /** `compact`: the short system prompt for small local models. */
  prompt: "full" | "compact";
  /** Tool ids without which the variant is not chosen (`selectVariant` picks the next candidate). */
  requires?: readonly string[];
}

/**
 * Tool ids in the order they are offered. An id without a registered spec (web_search,
 * access_mcp_resource; use_mcp_tool without an MCP hub) is simply left out by the registry.
 */
const EDIT = ["read_file", "write_to_file", "replace_in_file"] as const;
const EXPLORE_AND_RUN = [
  "list_files",
  "search_files",
  "list_code_definition_names",
  "execute_command",
  "command_output",
  "browser_action",
] as const;
const WEB = ["web_fetch", "web_search"] as const;
const INTEGRATIONS = ["use_mcp_tool", "access_mcp_resource", "use_skill", "use_subagents"] as const;
const CONVERSE = ["ask_followup_question", "plan_mode_respond"] as const;

const GENERIC_TOOLS = [
  ...EDIT,
  ...EXPLORE_AND_RUN,
  ...INTEGRATIONS,
  ...CONVERSE,
  "attempt_completion",
] as const;

/** generic + the web tools. */
const NEXT_GEN_TOOLS = [
  ...EDIT,
  ...EXPLORE_AND_RUN,
  ...WEB,
  ...INTEGRATIONS,
  ...CONVERSE,
  "attempt_completion",
] as const;

/** GPT-5 family: one `apply_patch` (V4A patches) for all edits, plus new_task and act_mode_respond. */
const GPT_TOOLS = [
  "read_file",
  "apply_patch",
  ...EXPLORE_AND_RUN,
  ...WEB,
  ...INTEGRATIONS,
  "new_task",
  ...CONVERSE,
  "act_mode_respond",
  "attempt_completion",
] as const;

const COMPACT_TOOLS = [
  "read_file",
  "write_to_file",
  "replace_in_file",
  "search_files",
  "list_files",
  "execute_command",
  "ask_followup_question",
  "attempt_completion",
] as const;

export const VARIANTS: Readonly<Record<VariantId, CodingPromptVariant>> = {
  generic: { id: "generic", family: "generic", tools: GENERIC_TOOLS, nativeTools: false, prompt: "full" },
  "next-gen": {
    id: "next-gen",
    family: "next-gen",
    tools: NEXT_GEN_TOOLS,
    nativeTools: false,
    prompt: "full",
  },
  native: { id: "native", family: "native", tools: NEXT_GEN_TOOLS, nativeTools: true, prompt: "full" },
  compact: { id: "compact", family: "compact", tools: COMPACT_TOOLS, nativeTools: false, prompt: "compact" },
  gpt: {
    id: "gpt",
    family: "gpt",
    tools: GPT_TOOLS,
    nativeTools: true,
    prompt: "full",
    requires: ["apply_patch"],
  },
};

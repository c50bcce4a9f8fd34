import type { $ZodType } from "zod/v4/core";

/**
 * Model families a tool spec can be written for. `generic` is the fallback every tool has.
 * A family tunes wording (e.g. `compact` for small local models); parameters keep their names.
 */
export type ModelFamily = "generic" | "next-gen" | "native" | "compact" | "gpt" | (string & {});

/** Facts about the run that decide which tools are offered and fill description templates. */
export interface ToolContextInfo {
  /** Workspace root, for `{{cwd}}` in descriptions. */
  cwd: string;
  /** e.g. `linux 6.1`, for `{{os}}`. */
  os: string;
  /** e.g. `/bin/bash`, for `{{shell}}`. */
  shell: string;
  mode: "plan" | "act";
  /** The person can switch plan/act mode during the task (an interactive host). */
  modeCanChange?: boolean;
  supportsImages: boolean;
  browserAvailable: boolean;
  /** True when every tool call is approved without asking. */
  yolo: boolean;
  /** True inside a subagent run (no nested subagents). */
  isSubagent: boolean;
  /** Names of the skills available (empty: `use_skill` is not offered). */
  skills: readonly string[];
}

/**
 * A tool input declared as JSON Schema rather than zod: tools whose schema comes from elsewhere
 * (MCP servers). The root should be an object schema; it is normalised when converted.
 */
export interface JsonSchemaInput {
  jsonSchema: Record<string, unknown>;
}

/**
 * What the model is told about one tool, for one model family. `inputSchema` is the single
 * declaration of the parameters (zod/mini, or JSON Schema for tools declared elsewhere), from
 * which every provider's JSON Schema and the XML prompt section are generated. `description`
 * (and parameter descriptions) may contain `{{cwd}}`, `{{os}}`, `{{shell}}`.
 */
export interface ToolSpec {
  /** The tool id (`read_file`); the handler it routes to. */
  id: string;
  family: ModelFamily;
  /** The name the model calls; the id unless the spec renames it (MCP, subagents). */
  name: string;
  description: string;
  inputSchema: $ZodType | JsonSchemaInput;
  /** The tool is offered only when this holds. */
  contextRequirements?: (ctx: ToolContextInfo) => boolean;
}

/** A prompt variant: which tools it offers, and whether it uses native tool calling. */
export interface PromptVariant {
  id: string;
  family: ModelFamily;
  /** Tool ids, in the order they are offered. Empty: plain chat. */
  tools: readonly string[];
  nativeTools: boolean;
}

import type { LlmToolDefinition } from "../../../llm/types.js";
import type { ToolContextInfo, ToolSpec } from "../../tool-spec.js";
import { offeredDescription, type ToolSetConverter } from "../converter.js";
import { filledJsonSchema } from "../json-schema.js";

/** The wire-neutral tool definitions our model adapters take (`LlmRequest.tools`). */
export function toLlmToolDefinitions(specs: readonly ToolSpec[], ctx: ToolContextInfo): LlmToolDefinition[] {
  return specs.map((spec) => ({
    name: spec.name,
    description: offeredDescription(spec, ctx),
    inputSchema: filledJsonSchema(spec, ctx),
  }));
}

export const llmToolConverter: ToolSetConverter<LlmToolDefinition[]> = {
  id: "llm",
  convert: toLlmToolDefinitions,
};

import type { ToolContextInfo, ToolSpec } from "../../tool-spec.js";
import { offeredDescription, type ToolSetConverter } from "../converter.js";
import { filledJsonSchema, type JsonSchema } from "../json-schema.js";

/** A tool in the Anthropic Messages API's `tools` array. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export function toAnthropicTools(specs: readonly ToolSpec[], ctx: ToolContextInfo): AnthropicTool[] {
  return specs.map((spec) => ({
    name: spec.name,
    description: offeredDescription(spec, ctx),
    input_schema: filledJsonSchema(spec, ctx),
  }));
}

export const anthropicConverter: ToolSetConverter<AnthropicTool[]> = {
  id: "anthropic",
  convert: toAnthropicTools,
};

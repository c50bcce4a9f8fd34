import type { ToolContextInfo, ToolSpec } from "../../tool-spec.js";
import { offeredDescription, type ToolSetConverter } from "../converter.js";
import { filledJsonSchema, type JsonSchema } from "../json-schema.js";

/**
 * A function tool in the OpenAI Responses API's `tools` array. `strict` is false: strict mode
 * would require every property to be required and `additionalProperties: false` throughout.
 */
export interface OpenAiResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: false;
}

export function toOpenAiResponsesTools(
  specs: readonly ToolSpec[],
  ctx: ToolContextInfo,
): OpenAiResponsesTool[] {
  return specs.map((spec) => ({
    type: "function",
    name: spec.name,
    description: offeredDescription(spec, ctx),
    parameters: filledJsonSchema(spec, ctx),
    strict: false,
  }));
}

export const openAiResponsesConverter: ToolSetConverter<OpenAiResponsesTool[]> = {
  id: "openai-responses",
  convert: toOpenAiResponsesTools,
};

import type { ToolContextInfo, ToolSpec } from "../../tool-spec.js";
import { offeredDescription, type ToolSetConverter } from "../converter.js";
import { filledJsonSchema, type JsonSchema } from "../json-schema.js";

/** A function tool in the OpenAI Chat Completions API's `tools` array. */
export interface OpenAiChatTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

export function toOpenAiChatTools(specs: readonly ToolSpec[], ctx: ToolContextInfo): OpenAiChatTool[] {
  return specs.map((spec) => ({
    type: "function",
    function: {
      name: spec.name,
      description: offeredDescription(spec, ctx),
      parameters: filledJsonSchema(spec, ctx),
    },
  }));
}

export const openAiChatConverter: ToolSetConverter<OpenAiChatTool[]> = {
  id: "openai-chat",
  convert: toOpenAiChatTools,
};

import * as z from "zod/mini";
import type { LlmToolDefinition } from "../llm/types.js";
import type { ToolHandler } from "./tool.js";

/** The JSON Schema of a tool's input, generated from its one schema declaration. */
export function toolInputJsonSchema(tool: ToolHandler): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.inputSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return schema;
}

export function toLlmToolDefinitions(tools: readonly ToolHandler[]): LlmToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: toolInputJsonSchema(tool),
  }));
}

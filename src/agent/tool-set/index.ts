export { assertOffered, type ToolSetConverter, ToolSpecContextError } from "./converter.js";
export {
  type AnthropicTool,
  anthropicConverter,
  toAnthropicTools,
} from "./converters/anthropic.js";
export {
  type GeminiFunctionDeclaration,
  type GeminiSchema,
  type GeminiType,
  geminiConverter,
  toGeminiFunctionDeclarations,
  toGeminiSchema,
} from "./converters/gemini.js";
export { llmToolConverter, toLlmToolDefinitions } from "./converters/llm.js";
export { type OpenAiChatTool, openAiChatConverter, toOpenAiChatTools } from "./converters/openai-chat.js";
export {
  type OpenAiResponsesTool,
  openAiResponsesConverter,
  toOpenAiResponsesTools,
} from "./converters/openai-responses.js";
export { toXmlToolSection, xmlConverter } from "./converters/xml.js";
export {
  createDynamicSpecSet,
  type DynamicSpecSet,
  MAX_TOOL_NAME_LENGTH,
  type McpToolSource,
  type McpToolSpec,
  type McpToolSpecs,
  mcpToolSpecs,
  type SubagentToolSpec,
  sanitizeToolName,
  subagentToolSpecs,
} from "./dynamic-specs.js";
export { fillTemplate, type JsonSchema, specJsonSchema } from "./json-schema.js";
export { redescribe } from "./redescribe.js";
export {
  createToolSetRegistry,
  type DynamicToolSpecs,
  type ToolSetRegistry,
  type ToolSetRegistryOptions,
} from "./registry.js";

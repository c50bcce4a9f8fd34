/** Maps Bowline's request to the Bedrock Converse request. */
import type {
  ContentBlock as BedrockContentBlock,
  ImageBlock as BedrockImageBlock,
  ConverseStreamCommandInput,
  ImageFormat,
  Message,
  SystemContentBlock,
  Tool,
  ToolResultContentBlock,
  ToolUseBlock,
} from "@aws-sdk/client-bedrock-runtime";
import { DEFAULT_MAX_OUTPUT_TOKENS } from "./anthropic-request.js";
import { isJsonObject } from "./tool-arguments.js";
import type {
  ContentBlock,
  ImageBlock,
  LlmMessage,
  LlmRequest,
  LlmToolDefinition,
  ModelConfig,
  TextBlock,
} from "./types.js";

type JsonDocument = NonNullable<ToolUseBlock["input"]>;

/**
 * Bedrock caches the prompt up to each cachePoint block (at most four a request; we place
 * three: system, tools, last user message). Models without prompt caching reject them.
 */
const CACHE_POINT = { cachePoint: { type: "default" } } as const;

const imageFormats: Record<string, ImageFormat> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

function imageBlock(block: ImageBlock): BedrockImageBlock {
  // Other media types go out as their subtype; the service rejects them with a clear message.
  const format = imageFormats[block.mediaType] ?? (block.mediaType.replace(/^image\//, "") as ImageFormat);
  return { format, source: { bytes: Buffer.from(block.data, "base64") } };
}

function resultContent(blocks: Array<TextBlock | ImageBlock>): ToolResultContentBlock[] {
  return blocks.flatMap((block): ToolResultContentBlock[] => {
    if (block.type === "image") return [{ image: imageBlock(block) }];
    return block.text === "" ? [] : [{ text: block.text }];
  });
}

/** One of our blocks as Bedrock content; empty when the block cannot be sent. */
function contentBlocks(block: ContentBlock): BedrockContentBlock[] {
  switch (block.type) {
    case "text":
      // The API rejects blank text blocks.
      return block.text === "" ? [] : [{ text: block.text }];
    case "image":
      return [{ image: imageBlock(block) }];
    case "tool_call":
      return [
        {
          toolUse: {
            toolUseId: block.id,
            name: block.name,
            input: (isJsonObject(block.input) ? block.input : {}) as JsonDocument,
          },
        },
      ];
    case "tool_result":
      return [
        {
          toolResult: {
            toolUseId: block.callId,
            content: resultContent(block.content),
            ...(block.isError ? { status: "error" as const } : {}),
          },
        },
      ];
    case "reasoning":
      // Reasoning is only accepted back exactly as the model produced it: signed or redacted.
      if (block.redacted) {
        return [{ reasoningContent: { redactedContent: Buffer.from(block.redacted, "base64") } }];
      }
      return block.signature
        ? [{ reasoningContent: { reasoningText: { text: block.text, signature: block.signature } } }]
        : [];
  }
}

/**
 * History messages never change once appended, so each is converted once per process: a long
 * task's turns then convert only the new messages instead of the whole history every time.
 */
const converted = new WeakMap<LlmMessage, Message>();

function messageParam(message: LlmMessage): Message {
  let param = converted.get(message);
  if (!param) {
    param = convertMessage(message);
    converted.set(message, param);
  }
  return param;
}

function convertMessage(message: LlmMessage): Message {
  const content = message.content.flatMap(contentBlocks);
  // Tool results must open the user message that answers the tool calls.
  const ordered =
    message.role === "user"
      ? [...content.filter((b) => b.toolResult), ...content.filter((b) => !b.toolResult)]
      : content;
  return { role: message.role, content: ordered };
}

/**
 * Ends the last user message with a cache point so the next turn reads the history from the
 * cache. The converted messages are shared between turns, so the marked message is a copy.
 */
function markCachePoint(messages: Message[]): void {
  const index = messages.findLastIndex((message) => message.role === "user");
  const message = messages[index];
  if (!message?.content || message.content.length === 0) return;
  messages[index] = { ...message, content: [...message.content, CACHE_POINT] };
}

const convertedTools = new WeakMap<readonly LlmToolDefinition[], Tool[]>();

/** The tool specs followed by a cache point, so the tools are cached with the system prompt. */
function toolParams(tools: readonly LlmToolDefinition[], caching: boolean): Tool[] {
  let params = convertedTools.get(tools);
  if (!params) {
    params = tools.map(toolParam);
    convertedTools.set(tools, params);
  }
  return caching ? [...params, CACHE_POINT] : params;
}

function toolParam(tool: LlmToolDefinition): Tool {
  const json = { type: "object", ...tool.inputSchema } as JsonDocument;
  return { toolSpec: { name: tool.name, description: tool.description, inputSchema: { json } } };
}

function systemParam(system: string, caching: boolean): SystemContentBlock[] | undefined {
  if (!system) return undefined;
  return caching ? [{ text: system }, CACHE_POINT] : [{ text: system }];
}

/**
 * The thinking budget goes to the model as Anthropic's `thinking` field. Thinking models take
 * no temperature, so a thinking request leaves it out.
 */
function thinkingBudget(config: ModelConfig): number | undefined {
  const budget = config.reasoning?.budgetTokens;
  return budget !== undefined && budget > 0 ? budget : undefined;
}

export function toBedrockRequest(config: ModelConfig, request: LlmRequest): ConverseStreamCommandInput {
  const messages = request.messages.map(messageParam);
  // Models without prompt caching refuse cache points; the catalogue says which have it.
  const caching = config.modelInfo?.promptCaching === true;
  if (caching) markCachePoint(messages);
  const budget = thinkingBudget(config);
  const system = systemParam(request.system, caching);
  return {
    modelId: config.model,
    messages,
    ...(system ? { system } : {}),
    ...(request.tools.length > 0 ? { toolConfig: { tools: toolParams(request.tools, caching) } } : {}),
    inferenceConfig: {
      maxTokens: request.maxOutputTokens ?? config.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      ...(request.temperature !== undefined && budget === undefined
        ? { temperature: request.temperature }
        : {}),
    },
    ...(budget !== undefined
      ? { additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: budget } } }
      : {}),
  };
}

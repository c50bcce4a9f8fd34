/** Maps Bowline's request to the Anthropic Messages request body. */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import { jsonRequestBody } from "./json-request.js";
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

/** Used when neither the request nor the model config says how long a reply may be. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

function imageParam(block: ImageBlock): ImageBlockParam {
  return {
    type: "image",
    source: { type: "base64", media_type: block.mediaType as ImageMediaType, data: block.data },
  };
}

function resultContent(blocks: Array<TextBlock | ImageBlock>): Array<TextBlockParam | ImageBlockParam> {
  return blocks.flatMap((block): Array<TextBlockParam | ImageBlockParam> => {
    if (block.type === "image") return [imageParam(block)];
    return block.text === "" ? [] : [{ type: "text", text: block.text }];
  });
}

/** One of our blocks as Anthropic content; empty when the block cannot be sent. */
function blockParams(block: ContentBlock): ContentBlockParam[] {
  switch (block.type) {
    case "text":
      // The API rejects empty text blocks.
      return block.text === "" ? [] : [{ type: "text", text: block.text }];
    case "image":
      return [imageParam(block)];
    case "tool_call":
      return [
        {
          type: "tool_use",
          id: block.id,
          name: block.name,
          input: isJsonObject(block.input) ? block.input : {},
        },
      ];
    case "tool_result":
      return [
        {
          type: "tool_result",
          tool_use_id: block.callId,
          content: resultContent(block.content),
          ...(block.isError ? { is_error: true } : {}),
        },
      ];
    case "reasoning":
      // A thinking block is only accepted back with the signature the API gave it.
      if (block.redacted !== undefined) return [{ type: "redacted_thinking", data: block.redacted }];
      return block.signature ? [{ type: "thinking", thinking: block.text, signature: block.signature }] : [];
  }
}

/**
 * History messages never change once appended, so each is converted once per process: a long
 * task's turns then convert only the new messages instead of the whole history every time.
 */
const converted = new WeakMap<LlmMessage, MessageParam>();

function messageParam(message: LlmMessage): MessageParam {
  let param = converted.get(message);
  if (!param) {
    param = convertMessage(message);
    converted.set(message, param);
  }
  return param;
}

function convertMessage(message: LlmMessage): MessageParam {
  const content = message.content.flatMap(blockParams);
  // Tool results must open the user message that answers the tool calls.
  const ordered =
    message.role === "user"
      ? [
          ...content.filter((b) => b.type === "tool_result"),
          ...content.filter((b) => b.type !== "tool_result"),
        ]
      : content;
  return { role: message.role, content: ordered };
}

/** The same message with its last block marked as a cache breakpoint (a copy: params are shared). */
function withBreakpoint(message: MessageParam): MessageParam {
  if (typeof message.content === "string") return message;
  const block = message.content.at(-1);
  if (!block || block.type === "thinking" || block.type === "redacted_thinking") return message;
  return {
    ...message,
    content: [...message.content.slice(0, -1), { ...block, cache_control: { type: "ephemeral" } }],
  } as MessageParam;
}

/**
 * Cache breakpoints on the last two user messages: the last one writes this turn's prefix for
 * the next turn, the one before reads what the previous turn wrote (exactly, however many blocks
 * the turn added). With the tools and system breakpoints that makes Anthropic's maximum of four.
 */
function markCacheBreakpoints(messages: MessageParam[]): void {
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < 2; i--) {
    if (messages[i]!.role !== "user") continue;
    messages[i] = withBreakpoint(messages[i]!);
    marked++;
  }
}

/**
 * The tools as sent, by the definitions array (the same from one turn to the next). They end
 * with a breakpoint of their own, so they stay cached when the system prompt changes (a mode
 * switch, new rules) but the tools do not. The same objects each turn let the body reuse their
 * JSON (see json-request.ts).
 */
const convertedTools = new WeakMap<readonly LlmToolDefinition[], Tool[]>();

function toolParams(tools: readonly LlmToolDefinition[]): Tool[] {
  let params = convertedTools.get(tools);
  if (!params) {
    const converted = tools.map(toolParam);
    const last = converted.at(-1);
    params = last
      ? [...converted.slice(0, -1), { ...last, cache_control: { type: "ephemeral" } }]
      : converted;
    convertedTools.set(tools, params);
  }
  return params;
}

/** The system prompt as sent, kept while the prompt stays the same (for the same reason). */
let systemParam: { text: string; param: TextBlockParam[] } | undefined;

function systemParams(text: string): TextBlockParam[] {
  if (systemParam?.text !== text) {
    systemParam = { text, param: [{ type: "text", text, cache_control: { type: "ephemeral" } }] };
  }
  return systemParam.param;
}

function toolParam(tool: LlmToolDefinition): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { type: "object", ...tool.inputSchema } as Tool.InputSchema,
  };
}

export function toAnthropicRequest(request: LlmRequest, config: ModelConfig): MessageCreateParamsStreaming {
  const messages = request.messages.map(messageParam);
  markCacheBreakpoints(messages);
  const adaptive = config.modelInfo?.thinking === "adaptive";
  // Adaptive-thinking models decide their own budget (a manual one is refused); others take one.
  const budget = adaptive ? 0 : (config.reasoning?.budgetTokens ?? 0);
  const effort = adaptive ? config.reasoning?.effort : undefined;
  const requested = request.maxOutputTokens ?? config.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  // The thinking budget is part of max_tokens and must leave room for the answer.
  const maxTokens = budget > 0 ? Math.max(requested, budget + 1024) : requested;
  const fixedSampling = budget > 0 || config.modelInfo?.fixedSampling === true;
  return {
    model: config.model,
    max_tokens: maxTokens,
    stream: true,
    messages,
    ...(request.system ? { system: systemParams(request.system) } : {}),
    ...(request.tools.length > 0 ? { tools: toolParams(request.tools) } : {}),
    ...(budget > 0 ? { thinking: { type: "enabled", budget_tokens: budget } } : {}),
    ...(effort ? { output_config: { effort: effort === "minimal" ? "low" : effort } } : {}),
    // Extended thinking, and models with fixed sampling, do not accept a temperature.
    ...(request.temperature !== undefined && !fixedSampling ? { temperature: request.temperature } : {}),
  };
}

/**
 * The body to send for `params`, in place of the SDK's serialisation: the same JSON, built from
 * pieces kept between turns (see json-request.ts).
 */
export function anthropicRequestBody(params: MessageCreateParamsStreaming): Blob {
  const { messages, ...fields } = params;
  return jsonRequestBody(fields, "messages", messages);
}

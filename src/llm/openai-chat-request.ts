/** Maps Bowline's request to the OpenAI Chat Completions request body. */
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions/completions";
import { jsonRequestBody } from "./json-request.js";
import type {
  ContentBlock,
  ImageBlock,
  LlmMessage,
  LlmRequest,
  LlmToolDefinition,
  ModelConfig,
  ToolResultBlock,
} from "./types.js";

function imagePart(block: ImageBlock): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: `data:${block.mediaType};base64,${block.data}` } };
}

/** User content as a plain string when it is all text (what most compatible servers accept best). */
function userContent(blocks: ContentBlock[]): string | ChatCompletionContentPart[] {
  const parts = blocks.flatMap((block): ChatCompletionContentPart[] => {
    if (block.type === "text") return [{ type: "text", text: block.text }];
    if (block.type === "image") return [imagePart(block)];
    return [];
  });
  if (parts.every((part) => part.type === "text")) {
    return parts.map((part) => (part.type === "text" ? part.text : "")).join("\n\n");
  }
  return parts;
}

function resultText(result: ToolResultBlock): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n");
}

/**
 * A user message: tool results become `tool` messages (which must directly follow the assistant
 * message that called the tools); images from results and the user's own blocks follow in one
 * user message, since `tool` messages cannot carry images.
 */
function userMessages(message: LlmMessage): ChatCompletionMessageParam[] {
  const results = message.content.filter((block): block is ToolResultBlock => block.type === "tool_result");
  const messages: ChatCompletionMessageParam[] = results.map((result) => ({
    role: "tool",
    tool_call_id: result.callId,
    content: resultText(result),
  }));
  const follow: ContentBlock[] = [];
  for (const result of results) {
    const images = result.content.filter((block) => block.type === "image");
    if (images.length === 0) continue;
    follow.push({ type: "text", text: `Images returned by tool call ${result.callId}:` }, ...images);
  }
  follow.push(...message.content.filter((block) => block.type === "text" || block.type === "image"));
  if (follow.length > 0) messages.push({ role: "user", content: userContent(follow) });
  return messages;
}

function assistantMessage(message: LlmMessage): ChatCompletionMessageParam {
  const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  const toolCalls = message.content.flatMap((block): ChatCompletionMessageFunctionToolCall[] =>
    block.type === "tool_call"
      ? [
          {
            id: block.id,
            type: "function",
            function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
          },
        ]
      : [],
  );
  return {
    role: "assistant",
    content: text === "" ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function toolParam(tool: LlmToolDefinition): ChatCompletionFunctionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

/**
 * History messages never change once appended, so each is converted once per process: a long
 * task's turns then convert only the new messages instead of the whole history every time.
 */
const converted = new WeakMap<LlmMessage, ChatCompletionMessageParam[]>();

function convertedMessage(message: LlmMessage): ChatCompletionMessageParam[] {
  let params = converted.get(message);
  if (!params) {
    params = message.role === "user" ? userMessages(message) : [assistantMessage(message)];
    converted.set(message, params);
  }
  return params;
}

const convertedTools = new WeakMap<readonly LlmToolDefinition[], ChatCompletionFunctionTool[]>();

function toolParams(tools: readonly LlmToolDefinition[]): ChatCompletionFunctionTool[] {
  let params = convertedTools.get(tools);
  if (!params) {
    params = tools.map(toolParam);
    convertedTools.set(tools, params);
  }
  return params;
}

/** The system message, kept while the prompt stays the same, so the body reuses its JSON. */
let systemMessage: { role: "system"; content: string } | undefined;

function systemParam(content: string): ChatCompletionMessageParam {
  if (systemMessage?.content !== content) systemMessage = { role: "system", content };
  return systemMessage;
}

export function toOpenAiChatRequest(
  request: LlmRequest,
  config: ModelConfig,
): ChatCompletionCreateParamsStreaming {
  const quirks = config.quirks ?? {};
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system) messages.push(systemParam(request.system));
  for (const message of request.messages) messages.push(...convertedMessage(message));
  const maxTokens = request.maxOutputTokens ?? config.maxOutputTokens;
  const hasTools = request.tools.length > 0;
  return {
    model: config.model,
    messages,
    stream: true,
    ...(quirks.noStreamUsage ? {} : { stream_options: { include_usage: true } }),
    ...(hasTools ? { tools: toolParams(request.tools) } : {}),
    ...(hasTools && quirks.noParallelToolCalls ? { parallel_tool_calls: false } : {}),
    ...(maxTokens !== undefined ? { [quirks.maxTokensField ?? "max_completion_tokens"]: maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(config.reasoning?.effort ? { reasoning_effort: config.reasoning.effort } : {}),
  };
}

/**
 * The body to send for `params`, in place of the SDK's serialisation: the same JSON, built from
 * pieces kept between turns (see json-request.ts).
 */
export function openAiChatRequestBody(params: ChatCompletionCreateParamsStreaming): Blob {
  const { messages, ...fields } = params;
  return jsonRequestBody(fields, "messages", messages);
}

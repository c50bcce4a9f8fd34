/** Maps Bowline's request to the OpenAI Responses request body. */
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
} from "openai/resources/responses/responses";
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

function imagePart(block: ImageBlock): ResponseInputContent {
  return { type: "input_image", detail: "auto", image_url: `data:${block.mediaType};base64,${block.data}` };
}

function userContent(blocks: ContentBlock[]): ResponseInputContent[] {
  return blocks.flatMap((block): ResponseInputContent[] => {
    if (block.type === "text") return [{ type: "input_text", text: block.text }];
    if (block.type === "image") return [imagePart(block)];
    return [];
  });
}

function resultText(result: ToolResultBlock): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n");
}

/**
 * A user message: tool results become `function_call_output` items, which carry text only; images
 * from results and the user's own blocks follow in one user message.
 */
function userItems(message: LlmMessage): ResponseInputItem[] {
  const results = message.content.filter((block): block is ToolResultBlock => block.type === "tool_result");
  const items: ResponseInputItem[] = results.map((result) => ({
    type: "function_call_output",
    call_id: result.callId,
    output: resultText(result),
  }));
  const follow: ContentBlock[] = [];
  for (const result of results) {
    const images = result.content.filter((block) => block.type === "image");
    if (images.length === 0) continue;
    follow.push({ type: "text", text: `Images returned by tool call ${result.callId}:` }, ...images);
  }
  follow.push(...message.content.filter((block) => block.type === "text" || block.type === "image"));
  if (follow.length > 0) items.push({ type: "message", role: "user", content: userContent(follow) });
  return items;
}

/**
 * One assistant block as input items, in reply order (a reasoning item must precede the items it
 * led to). Reasoning goes back only as the encrypted item the API produced: with `store: false`
 * the server keeps nothing, so a reasoning item without its encrypted content cannot be resumed.
 */
function assistantBlockItems(block: ContentBlock): ResponseInputItem[] {
  switch (block.type) {
    case "text":
      // Our text blocks carry no message id, so they go back as plain assistant messages.
      return block.text === "" ? [] : [{ type: "message", role: "assistant", content: block.text }];
    case "tool_call":
      return [
        {
          type: "function_call",
          call_id: block.id,
          name: block.name,
          arguments: JSON.stringify(block.input ?? {}),
          ...(block.signature ? { id: block.signature } : {}),
        },
      ];
    case "reasoning":
      if (!block.id || !block.encrypted) return [];
      return [
        {
          type: "reasoning",
          id: block.id,
          encrypted_content: block.encrypted,
          summary: block.text === "" ? [] : [{ type: "summary_text", text: block.text }],
        },
      ];
    default:
      return [];
  }
}

/**
 * History messages never change once appended, so each is converted once per process: a long
 * task's turns then convert only the new messages instead of the whole history every time.
 */
const converted = new WeakMap<LlmMessage, ResponseInputItem[]>();

function convertedMessage(message: LlmMessage): ResponseInputItem[] {
  let items = converted.get(message);
  if (!items) {
    items = message.role === "user" ? userItems(message) : message.content.flatMap(assistantBlockItems);
    converted.set(message, items);
  }
  return items;
}

function toolParam(tool: LlmToolDefinition): FunctionTool {
  return {
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  };
}

const convertedTools = new WeakMap<readonly LlmToolDefinition[], FunctionTool[]>();

function toolParams(tools: readonly LlmToolDefinition[]): FunctionTool[] {
  let params = convertedTools.get(tools);
  if (!params) {
    params = tools.map(toolParam);
    convertedTools.set(tools, params);
  }
  return params;
}

/** The request parameters, with `input` always a list of items. */
export type OpenAiResponsesParams = ResponseCreateParamsStreaming & { input: ResponseInputItem[] };

export function toOpenAiResponsesRequest(request: LlmRequest, config: ModelConfig): OpenAiResponsesParams {
  const maxTokens = request.maxOutputTokens ?? config.maxOutputTokens;
  const effort = config.reasoning?.effort;
  return {
    model: config.model,
    input: request.messages.flatMap(convertedMessage),
    stream: true,
    // The server keeps nothing between turns; reasoning comes back encrypted and is sent again.
    store: false,
    include: ["reasoning.encrypted_content"],
    ...(request.system ? { instructions: request.system } : {}),
    ...(request.tools.length > 0 ? { tools: toolParams(request.tools) } : {}),
    ...(maxTokens !== undefined ? { max_output_tokens: maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(effort ? { reasoning: { effort, summary: "auto" as const } } : {}),
    ...(config.quirks?.noParallelToolCalls ? { parallel_tool_calls: false } : {}),
  };
}

/**
 * The body to send for `params`, in place of the SDK's serialisation: the same JSON, built from
 * pieces kept between turns (see json-request.ts).
 */
export function openAiResponsesRequestBody(params: OpenAiResponsesParams): Blob {
  const { input, ...fields } = params;
  return jsonRequestBody(fields, "input", input);
}

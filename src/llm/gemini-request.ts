/** Maps Bowline's request to the parameters of the Gemini SDK's `generateContentStream`. */
import type {
  Content,
  FunctionDeclaration,
  GenerateContentConfig,
  GenerateContentParameters,
  Part,
  Tool,
} from "@google/genai";
import { isJsonObject } from "./tool-arguments.js";
import type {
  ContentBlock,
  ImageBlock,
  LlmMessage,
  LlmRequest,
  LlmToolDefinition,
  ModelConfig,
  ReasoningConfig,
  ToolResultBlock,
} from "./types.js";

/**
 * Gemini's function calls usually carry no id, so the adapter makes one up per call:
 * `call_<8 hex digits of the reply>_<position in the reply>`. Made-up ids stay on our side; an id
 * the API did send goes back with the call and its response.
 */
const GENERATED_CALL_ID = /^call_[0-9a-f]{8}_\d+$/;

export function generatedCallId(replyKey: string, position: number): string {
  return `call_${replyKey}_${position}`;
}

function wireCallId(id: string): { id: string } | Record<string, never> {
  return GENERATED_CALL_ID.test(id) ? {} : { id };
}

function inlinePart(block: ImageBlock): Part {
  return { inlineData: { mimeType: block.mediaType, data: block.data } };
}

/** One block of a model turn. Reasoning goes back only when signed: unsigned thoughts are of no use. */
function modelParts(block: ContentBlock): Part[] {
  switch (block.type) {
    case "text":
      // Gemini rejects empty parts.
      return block.text === "" ? [] : [{ text: block.text }];
    case "image":
      return [inlinePart(block)];
    case "reasoning":
      return block.signature ? [{ text: block.text, thought: true, thoughtSignature: block.signature }] : [];
    case "tool_call":
      return [
        {
          functionCall: {
            ...wireCallId(block.id),
            name: block.name,
            args: isJsonObject(block.input) ? block.input : {},
          },
          ...(block.signature ? { thoughtSignature: block.signature } : {}),
        },
      ];
    case "tool_result":
      return [];
  }
}

function resultText(result: ToolResultBlock): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n");
}

/**
 * A user turn: the function responses first (Gemini pairs them with the previous turn's calls by
 * name and order), then the images tools returned, then the user's own text and images. Images
 * follow as ordinary parts rather than inside `functionResponse.parts`, which only some models accept.
 */
function userParts(blocks: readonly ContentBlock[], nameOf: (callId: string) => string): Part[] {
  const results = blocks.filter((block): block is ToolResultBlock => block.type === "tool_result");
  const parts: Part[] = results.map((result) => {
    const text = resultText(result);
    return {
      functionResponse: {
        ...wireCallId(result.callId),
        name: nameOf(result.callId),
        response: result.isError ? { error: text } : { output: text },
      },
    };
  });
  for (const result of results) {
    const images = result.content.filter((block) => block.type === "image");
    if (images.length === 0) continue;
    parts.push({ text: `Images returned by the ${nameOf(result.callId)} call:` }, ...images.map(inlinePart));
  }
  for (const block of blocks) {
    if (block.type === "text" && block.text !== "") parts.push({ text: block.text });
    else if (block.type === "image") parts.push(inlinePart(block));
  }
  return parts;
}

/**
 * History messages never change once appended, so each is converted once per process: a long
 * task's turns then convert only the new messages instead of the whole history every time.
 */
const converted = new WeakMap<LlmMessage, Content>();

function convertedContent(message: LlmMessage, nameOf: (callId: string) => string): Content {
  let content = converted.get(message);
  if (!content) {
    content =
      message.role === "user"
        ? { role: "user", parts: userParts(message.content, nameOf) }
        : { role: "model", parts: message.content.flatMap(modelParts) };
    converted.set(message, content);
  }
  return content;
}

/**
 * The conversation as Gemini contents. A function response must name the function it answers,
 * which our tool results only know by call id: the names come from the calls earlier in the history.
 */
function contentsOf(messages: readonly LlmMessage[]): Content[] {
  const callNames = new Map<string, string>();
  // A result whose call was trimmed from the history still needs a name; its id is the best left.
  const nameOf = (callId: string) => callNames.get(callId) ?? callId;
  const contents: Content[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "tool_call") callNames.set(block.id, block.name);
    }
    const content = convertedContent(message, nameOf);
    // Gemini rejects a content without parts (e.g. a turn that held only unsigned reasoning).
    if (content.parts && content.parts.length > 0) contents.push(content);
  }
  return contents;
}

/** Our JSON Schemas go through unchanged as `parametersJsonSchema`. */
function functionDeclaration(tool: LlmToolDefinition): FunctionDeclaration {
  return {
    name: tool.name,
    description: tool.description,
    parametersJsonSchema: { type: "object", ...tool.inputSchema },
  };
}

const convertedTools = new WeakMap<readonly LlmToolDefinition[], Tool[]>();

function toolParams(tools: readonly LlmToolDefinition[]): Tool[] {
  let params = convertedTools.get(tools);
  if (!params) {
    params = [{ functionDeclarations: tools.map(functionDeclaration) }];
    convertedTools.set(tools, params);
  }
  return params;
}

/** Thoughts are asked for whenever thinking is on, so they stream as reasoning. */
function thinkingConfig(
  reasoning: ReasoningConfig | undefined,
): Pick<GenerateContentConfig, "thinkingConfig"> {
  const budget = reasoning?.budgetTokens;
  if (budget === undefined) return {};
  return { thinkingConfig: { thinkingBudget: budget, ...(budget !== 0 ? { includeThoughts: true } : {}) } };
}

export function toGeminiRequest(
  request: LlmRequest,
  config: Pick<ModelConfig, "model" | "maxOutputTokens" | "reasoning">,
  signal: AbortSignal,
): GenerateContentParameters {
  const maxOutputTokens = request.maxOutputTokens ?? config.maxOutputTokens;
  return {
    model: config.model,
    contents: contentsOf(request.messages),
    config: {
      abortSignal: signal,
      // One request per stream: resuming or retrying a reply is the agent's decision.
      automaticContinuation: false,
      ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
      ...(request.tools.length > 0 ? { tools: toolParams(request.tools) } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...thinkingConfig(config.reasoning),
    },
  };
}

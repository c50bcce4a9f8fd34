/**
 * Encodes a scripted turn as an OpenAI Responses stream: named SSE events (`event: <type>`) whose
 * data carries the same `type` and a running `sequence_number`, from `response.created` to
 * `response.completed` with the whole response object and its usage.
 */
import {
  chunkText,
  resolveUsage,
  type ScriptedTurn,
  type TurnContext,
  toolArgumentsText,
} from "./fake-model-script.js";
import { openAiErrorBody } from "./openai-chat-sse.js";
import type { WireCodec } from "./wire-codec.js";

type Json = Record<string, unknown>;

/** The frames of one output item: `added`, the events that fill it in, then `done`. */
type ItemFrames = { item: Json; events: Json[]; done: Json };

/** A reasoning item with one summary part and fake encrypted content. */
function reasoningItem(id: string, reasoning: string, size: number, encrypted: string): ItemFrames {
  const part = (text: string) => ({ type: "summary_text", text });
  return {
    item: { id, type: "reasoning", summary: [] },
    events: [
      { type: "response.reasoning_summary_part.added", item_id: id, summary_index: 0, part: part("") },
      ...chunkText(reasoning, size).map((delta) => ({
        type: "response.reasoning_summary_text.delta",
        item_id: id,
        summary_index: 0,
        delta,
      })),
      { type: "response.reasoning_summary_text.done", item_id: id, summary_index: 0, text: reasoning },
      { type: "response.reasoning_summary_part.done", item_id: id, summary_index: 0, part: part(reasoning) },
    ],
    done: { id, type: "reasoning", summary: [part(reasoning)], encrypted_content: encrypted },
  };
}

function messageItem(id: string, text: string, size: number): ItemFrames {
  const part = (content: string) => ({ type: "output_text", annotations: [], logprobs: [], text: content });
  const where = { item_id: id, content_index: 0 };
  return {
    item: { id, type: "message", status: "in_progress", content: [], role: "assistant" },
    events: [
      { type: "response.content_part.added", ...where, part: part("") },
      ...chunkText(text, size).map((delta) => ({
        type: "response.output_text.delta",
        ...where,
        delta,
        logprobs: [],
      })),
      { type: "response.output_text.done", ...where, text, logprobs: [] },
      { type: "response.content_part.done", ...where, part: part(text) },
    ],
    done: { id, type: "message", status: "completed", content: [part(text)], role: "assistant" },
  };
}

function functionCallItem(id: string, callId: string, name: string, args: string, size: number): ItemFrames {
  const item = (status: string, text: string) => ({
    id,
    type: "function_call",
    status,
    arguments: text,
    call_id: callId,
    name,
  });
  return {
    item: item("in_progress", ""),
    events: [
      ...chunkText(args, size).map((delta) => ({
        type: "response.function_call_arguments.delta",
        item_id: id,
        delta,
      })),
      { type: "response.function_call_arguments.done", item_id: id, name, arguments: args },
    ],
    done: item("completed", args),
  };
}

function outputItems(turn: ScriptedTurn, context: TurnContext): ItemFrames[] {
  const n = context.requestNumber;
  const size = context.chunkSize;
  const items: ItemFrames[] = [];
  if (turn.reasoning) {
    const encrypted = Buffer.from(`fake reasoning state ${n}`).toString("base64");
    items.push(reasoningItem(`rs_fake_${n}`, turn.reasoning, size, encrypted));
  }
  if (turn.text) items.push(messageItem(`msg_fake_${n}`, turn.text, size));
  (turn.toolCalls ?? []).forEach((call, index) => {
    const callId = call.id ?? `call_fake_${context.nextToolCallNumber()}`;
    items.push(functionCallItem(`fc_fake_${n}_${index}`, callId, call.name, toolArgumentsText(call), size));
  });
  return items;
}

/** The `response` object as it stands, echoing the request's settings like the real API. */
function responseObject(context: TurnContext, body: any, status: string, output: Json[], usage: Json | null) {
  return {
    id: `resp_fake_${context.requestNumber}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body?.instructions ?? null,
    max_output_tokens: body?.max_output_tokens ?? null,
    model: context.model,
    output,
    parallel_tool_calls: body?.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: body?.reasoning?.effort ?? null, summary: body?.reasoning?.summary ?? null },
    store: body?.store ?? true,
    temperature: body?.temperature ?? 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: body?.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage,
    metadata: {},
  };
}

/** The SSE frames of one streamed reply; each frame is one chunk on the wire. */
export function openAiResponsesFrames(turn: ScriptedTurn, context: TurnContext, body: any): string[] {
  let sequence = 0;
  const frame = (data: Json): string => {
    const event = { ...data, sequence_number: sequence++ };
    return `event: ${String(data.type)}\ndata: ${JSON.stringify(event)}\n\n`;
  };
  const frames = [
    frame({ type: "response.created", response: responseObject(context, body, "in_progress", [], null) }),
    frame({ type: "response.in_progress", response: responseObject(context, body, "in_progress", [], null) }),
  ];
  const items = outputItems(turn, context);
  items.forEach(({ item, events, done }, index) => {
    frames.push(frame({ type: "response.output_item.added", output_index: index, item }));
    for (const event of events) frames.push(frame({ ...event, output_index: index }));
    frames.push(frame({ type: "response.output_item.done", output_index: index, item: done }));
  });

  const usage = resolveUsage(turn, context);
  const inputTokens = usage.inputTokens + usage.cacheReadTokens;
  const reported = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: Math.ceil((turn.reasoning ?? "").length / 4) },
    total_tokens: inputTokens + usage.outputTokens,
  };
  const output = items.map((item) => item.done);
  frames.push(
    frame({
      type: "response.completed",
      response: responseObject(context, body, "completed", output, reported),
    }),
  );
  return frames;
}

export const openAiResponsesCodec: WireCodec = {
  format: "openai-responses",
  streamContentType: "text/event-stream; charset=utf-8",
  matches: (path) => path === "/v1/responses",
  modelOf: (_path, body) => (typeof body?.model === "string" ? body.model : undefined),
  isStreaming: (_path, _query, body) => body?.stream === true,
  frames: (turn, context, body) => openAiResponsesFrames(turn, context, body),
  errorResponse: (status, message, requestNumber) => ({
    body: openAiErrorBody(status, message),
    headers: { "x-request-id": `req_fake_${requestNumber}` },
  }),
};

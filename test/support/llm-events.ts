/** Small helpers for tests that drive a model client and inspect what it emitted. */
import type { ContentBlock, LlmEvent, LlmMessage } from "../../src/llm/types.js";

/** Reads a stream to its end. */
export async function collectEvents(stream: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const events: LlmEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export function eventsOfType<T extends LlmEvent["type"]>(
  events: LlmEvent[],
  type: T,
): Array<Extract<LlmEvent, { type: T }>> {
  return events.filter((event): event is Extract<LlmEvent, { type: T }> => event.type === type);
}

export function textOf(events: LlmEvent[]): string {
  return eventsOfType(events, "text_delta")
    .map((event) => event.text)
    .join("");
}

export function reasoningOf(events: LlmEvent[]): string {
  return eventsOfType(events, "reasoning_delta")
    .map((event) => event.text)
    .join("");
}

/** The assistant message a reply amounts to, as an agent would store it in its history. */
export function assistantMessageFrom(events: LlmEvent[]): LlmMessage {
  const content: ContentBlock[] = [];
  let reasoning: { type: "reasoning"; text: string; signature?: string } | undefined;
  for (const event of events) {
    if (event.type === "reasoning_delta") {
      reasoning ??= { type: "reasoning", text: "" };
      reasoning.text += event.text;
      if (event.signature) reasoning.signature = event.signature;
    }
  }
  if (reasoning) content.push(reasoning);
  const text = textOf(events);
  if (text) content.push({ type: "text", text });
  for (const end of eventsOfType(events, "tool_call_end")) {
    content.push({ type: "tool_call", id: end.id, name: end.name, input: end.input });
  }
  return { role: "assistant", content };
}

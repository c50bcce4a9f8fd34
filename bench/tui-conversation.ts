/** A synthetic conversation for the TUI benchmarks: protocol events, as the core emits them. */
import type { Event, Say, Usage } from "../src/protocol/index.js";

const USAGE: Usage = {
  inputTokens: 1200,
  outputTokens: 300,
  cacheReadTokens: 24_000,
  cacheWriteTokens: 0,
  costUsd: 0.01,
};

const ANSWER = [
  "I looked at **the parser** and found the problem in `parseWeek`:",
  "",
  "```ts",
  "export function parseWeek(text: string): number {",
  "  const match = /W(\\d\\d)/.exec(text); // ISO week",
  "  return match ? Number(match[1]) : -1;",
  "}",
  "```",
  "",
  "- the regex ignores the year",
  "- weeks 53 are rejected",
].join("\n");

let counter = 0;
const added = (payload: Say, partial?: boolean): Event => ({
  type: "ui_message_added",
  message: { id: `b${++counter}`, ts: Date.now(), type: "say", payload, partial },
});

/** `count` finished messages: person, assistant markdown with code, and tool calls, in turn. */
export function conversationEvents(count: number): Event[] {
  const events: Event[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 4 === 0)
      events.push(added({ say: i === 0 ? "task" : "user_message", text: `Request number ${i}` }));
    else if (i % 4 === 1) events.push(added({ say: "text", text: ANSWER }));
    else
      events.push(
        added({
          say: "tool",
          tool: "read_file",
          callId: `c${i}`,
          summary: `read_file src/file-${i}.ts`,
          input: { path: `src/file-${i}.ts` },
          status: "done",
          output: "1 | export const x = 1;",
        }),
      );
  }
  events.push(added({ say: "api_request", index: 1, usage: USAGE }));
  return events;
}

export function stateEvent(status: "running" | "completed"): Event {
  return { type: "state", taskId: "bench", status, usage: USAGE, model: "bench-model", mode: "act" };
}

/** A streaming text message: its start, then `chunks` updates each a few words longer. */
export function streamEvents(chunks: number): Event[] {
  const id = `s${++counter}`;
  const events: Event[] = [];
  let text = "";
  for (let i = 0; i < chunks; i++) {
    text += `word${i} `;
    if (i % 12 === 11) text += "\n";
    const message = {
      id,
      ts: 0,
      type: "say" as const,
      payload: { say: "text" as const, text },
      partial: true,
    };
    events.push({ type: i === 0 ? "ui_message_added" : "ui_message_updated", message });
  }
  return events;
}

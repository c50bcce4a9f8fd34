/** Builders of API histories for the context manager's tests: tasks, tool turns, file reads. */
import fc from "fast-check";
import { expect } from "vitest";
import type {
  ContentBlock,
  LlmMessage,
  TextBlock,
  ToolCallBlock,
  ToolResultBlock,
} from "../../../src/llm/types.js";

let ids = 0;
export const nextId = () => `call_${++ids}`;

export const user = (...content: ContentBlock[]): LlmMessage => ({ role: "user", content });
export const assistant = (...content: ContentBlock[]): LlmMessage => ({ role: "assistant", content });
export const text = (value: string): TextBlock => ({ type: "text", text: value });

export const task = (value = "Fix the failing test in src/app.ts") => user(text(`<task>\n${value}\n</task>`));

/** `count` numbered lines of plausible code, as read_file shows them. */
export function numberedLines(count: number, seed = 0, start = 1): string {
  const width = String(start + count - 1).length;
  return Array.from({ length: count }, (_, i) => {
    const n = start + i;
    return `${String(n).padStart(width)} | const value${(n * 7 + seed) % 997} = compute(${n}, "item-${seed}-${n}");`;
  }).join("\n");
}

export interface Call {
  name: string;
  input: Record<string, unknown>;
  output: string;
  isError?: boolean;
}

/** One turn: the assistant's calls and the user message with their results, in order. */
export function toolTurn(calls: Call[], note?: string): [LlmMessage, LlmMessage] {
  const blocks: ToolCallBlock[] = calls.map((c) => ({
    type: "tool_call",
    id: nextId(),
    name: c.name,
    input: c.input,
  }));
  const results: ToolResultBlock[] = calls.map((c, i) => ({
    type: "tool_result",
    callId: blocks[i]!.id,
    content: [{ type: "text", text: c.output }],
    ...(c.isError ? { isError: true } : {}),
  }));
  return [
    assistant(text("Next step."), ...blocks),
    user(...results, ...(note === undefined ? [] : [text(note)])),
  ];
}

export const read = (
  path: string,
  output: string,
  range?: { start_line?: number; end_line?: number },
): Call => ({
  name: "read_file",
  input: { path, ...range },
  output,
});

/** Every object of the value frozen, so a test fails if anything writes into the history. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Random histories: a task, then turns of tool calls and results (sizes from tiny to several
 * thousand tokens), turns where the model called no tool, and now and then two user messages in
 * a row (a failed request followed by a new message), ending with a user message.
 */
export const historyArbitrary = fc
  .array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .array(fc.tuple(fc.constantFrom("read_file", "search", "run"), fc.nat(4000)), {
            minLength: 1,
            maxLength: 3,
          })
          .map((calls) => ({ kind: "tools" as const, calls })),
      },
      { weight: 1, arbitrary: fc.nat(500).map((size) => ({ kind: "chat" as const, size })) },
      { weight: 1, arbitrary: fc.nat(300).map((size) => ({ kind: "extra-user" as const, size })) },
    ),
    { minLength: 0, maxLength: 40 },
  )
  .map((steps) => {
    const history: LlmMessage[] = [task()];
    steps.forEach((step, s) => {
      if (step.kind === "tools") {
        history.push(
          ...toolTurn(
            step.calls.map(([name, size], c) => ({
              name,
              input: { path: `src/f${(s + c) % 5}.ts` },
              output: `${"x".repeat(size)} ${s}:${c}`,
            })),
          ),
        );
      } else if (step.kind === "chat") {
        history.push(assistant(text("y".repeat(step.size))), user(text("Use a tool.")));
      } else if (history.at(-1)!.role === "user") {
        history.push(user(text(`<user_message>${"z".repeat(step.size)}</user_message>`)));
      }
    });
    return history;
  });

/** The problems with a history's structure: unpaired tool calls or results, roles out of order. */
export function structureProblems(history: readonly LlmMessage[]): string[] {
  const problems: string[] = [];
  if (history[0]?.role !== "user") problems.push("does not start with a user message");
  const calls = new Set<string>();
  const answered = new Set<string>();
  history.forEach((message, i) => {
    if (i > 0 && message.role === "assistant" && history[i - 1]!.role === "assistant") {
      problems.push(`two assistant messages at ${i}`);
    }
    for (const block of message.content) {
      if (block.type === "tool_call") calls.add(block.id);
      if (block.type === "tool_result") {
        if (!calls.has(block.callId)) problems.push(`result ${block.callId} without its call`);
        answered.add(block.callId);
      }
    }
  });
  const lastCalls = history.at(-1)?.role === "assistant" ? history.at(-1)!.content : [];
  for (const id of calls) {
    if (!answered.has(id) && !lastCalls.some((b) => b.type === "tool_call" && b.id === id)) {
      problems.push(`call ${id} without its result`);
    }
  }
  return problems;
}

/** Each of `actual` is the very object at the same place of `expected` (from `offset`): nothing was copied. */
export function expectSameMessages(
  actual: readonly LlmMessage[],
  expected: readonly LlmMessage[],
  offset = 0,
) {
  for (let i = 0; i < actual.length; i++) expect(actual[i]).toBe(expected[offset + i]);
}

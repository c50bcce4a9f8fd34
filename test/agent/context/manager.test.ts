import { describe, expect, it } from "vitest";
import {
  createContextManager,
  estimateMessagesTokens,
  estimateNextRequest,
  estimateTextTokens,
  estimateToolTokens,
  summaryPrompt,
} from "../../../src/agent/context/index.js";
import type { LlmMessage, LlmRequest, LlmToolDefinition } from "../../../src/llm/types.js";
import {
  assistant,
  deepFreeze,
  expectSameMessages,
  numberedLines,
  read,
  structureProblems,
  task,
  text,
  toolTurn,
  user,
} from "./histories.js";

const INFO = { contextWindow: 32_000, maxOutputTokens: 8192 };
// usable = 32,000 - 6,400 - 1,600 = 24,000; threshold 19,200; target after compaction 9,600.
const TARGET = 9_600;
const SYSTEM = `You are Bowline, a coding agent. ${"Follow the rules. ".repeat(100)}`;
const TOOLS: LlmToolDefinition[] = ["read_file", "search_files", "execute_command"].map((name) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
}));
const FIXED = estimateTextTokens(SYSTEM) + estimateToolTokens(TOOLS);
const SUMMARY =
  "Goal: fix the test. Decisions: none. Files: src/a.ts. Done: read. Left: edit. Next step: edit a.ts.";

function setup(options: { summary?: string | undefined; dedupe?: "lazy" | "eager" } = {}) {
  const requests: LlmRequest[] = [];
  const manager = createContextManager({
    info: INFO,
    dedupe: options.dedupe,
    summarize: async (request) => {
      requests.push(request);
      return "summary" in options ? options.summary : SUMMARY;
    },
  });
  return { manager, requests, context: { system: SYSTEM, tools: TOOLS } };
}

/** A session of `turns` reads of ~1,800 tokens each, every file different. */
function session(turns: number, lines = 100): LlmMessage[] {
  const history: LlmMessage[] = [task()];
  for (let i = 0; i < turns; i++) history.push(...toolTurn([read(`src/m${i}.ts`, numberedLines(lines, i))]));
  return deepFreeze(history);
}

const grow = (history: LlmMessage[], turns: number, lines = 100) => {
  const more = [...history];
  for (let i = 0; i < turns; i++)
    more.push(...toolTurn([read(`src/n${history.length + i}.ts`, numberedLines(lines, i + 1000))]));
  return deepFreeze(more);
};

describe("ContextManager", () => {
  it("sends the history as it is below the threshold, with the full estimate and a meter", async () => {
    const { manager, requests, context } = setup();
    const history = session(3);
    const prepared = await manager.prepare(history, context);
    expect(prepared.compacted).toBeUndefined();
    expectSameMessages(prepared.history, history);
    expect(prepared.tokens).toBe(FIXED + estimateMessagesTokens(history));
    expect(manager.meter()).toBe(
      `Context: ${prepared.tokens.toLocaleString("en-US")} / 24,000 tokens (${Math.round((prepared.tokens / 24_000) * 100)}%)`,
    );
    expect(requests).toHaveLength(0);
  });

  it("counts from the provider's usage of the last request plus the messages appended since", async () => {
    const { manager, context } = setup();
    const first = session(3);
    const estimated = (await manager.prepare(first, context)).tokens;
    const next = grow(first, 1);
    // The provider counts 50% more than tokenx: what was sent is taken as counted, and the
    // estimate of what was appended is scaled by the same ratio.
    const counted = Math.round(estimated * 1.5);
    const usage = {
      inputTokens: 300,
      outputTokens: 200,
      cacheReadTokens: counted - 400,
      cacheWriteTokens: 100,
    };
    const prepared = await manager.prepare(next, { ...context, lastUsage: usage });
    const ratio = counted / estimated;
    expect(prepared.tokens).toBe(
      counted + Math.ceil(estimateMessagesTokens(next.slice(first.length)) * ratio),
    );
    // Without a count (a request that reported none), everything is estimated, at the learned ratio.
    const later = grow(next, 1);
    expect((await manager.prepare(later, context)).tokens).toBe(
      Math.ceil((FIXED + estimateMessagesTokens(later)) * ratio),
    );
  });

  it("compacts past the threshold with a summary request that extends the last request", async () => {
    const { manager, requests, context } = setup();
    const sent = session(9);
    const before = await manager.prepare(sent, context);
    expect(before.compacted).toBeUndefined();
    const history = grow(sent, 2);
    const prepared = await manager.prepare(history, context);
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    // Same system prompt and tools; every message sent before is the same object, in order.
    expect(request.system).toBe(SYSTEM);
    expect(request.tools).toEqual(TOOLS);
    expectSameMessages(request.messages.slice(0, before.history.length), before.history);
    expect(request.messages.slice(0, -1)).toEqual(history.slice(0, -1));
    expect(request.messages.at(-1)!.content.slice(0, -1)).toEqual(history.at(-1)!.content);
    expect(request.messages.at(-1)!.content.at(-1)).toMatchObject({
      text: expect.stringContaining("Next step"),
    });
    expect(estimateNextRequest(request.messages, FIXED)).toBeLessThanOrEqual(manager.window.usable);

    expect(prepared.compacted).toMatchObject({ kind: "summary", summary: SUMMARY });
    expect(prepared.compacted!.removed).toBeGreaterThan(0);
    expect(prepared.compacted!.summaryTokens).toBe(estimateTextTokens(SUMMARY));
    const compacted = prepared.history;
    expect(compacted[0]!.content[0]).toBe(history[0]!.content[0]);
    expect(JSON.stringify(compacted[0])).toContain(SUMMARY);
    expect(compacted[1]!.role).toBe("assistant");
    expect(compacted.length + prepared.compacted!.removed).toBe(history.length);
    expectSameMessages(compacted.slice(1), history, history.length - compacted.length + 1);
    expect(structureProblems(compacted)).toEqual([]);
    expect(prepared.tokens).toBe(FIXED + estimateMessagesTokens(compacted));
    expect(prepared.tokens).toBeLessThanOrEqual(TARGET);
    // The next turn goes on from the compacted history without compacting again.
    const after = await manager.prepare(grow(compacted, 1), context);
    expect(after.compacted).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it("truncates when no summary comes back", async () => {
    const { manager, context } = setup({ summary: undefined });
    const history = grow(session(9), 3);
    const prepared = await manager.prepare(history, context);
    expect(prepared.compacted).toMatchObject({ kind: "truncation" });
    expect(prepared.tokens).toBeLessThanOrEqual(TARGET);
    expect(JSON.stringify(prepared.history[0])).toContain("were removed to fit the context window");
    expect(structureProblems(prepared.history)).toEqual([]);
    expect(prepared.history.at(-1)).toBe(history.at(-1));
  });

  it("lets a failed summary call's rejection through (an abort)", async () => {
    const manager = createContextManager({
      info: INFO,
      summarize: () => Promise.reject(new Error("aborted")),
    });
    await expect(manager.prepare(grow(session(9), 3), { system: SYSTEM, tools: TOOLS })).rejects.toThrow(
      "aborted",
    );
  });

  it("shortens tool outputs when the summary request itself would overflow", async () => {
    const { manager, requests, context } = setup();
    // 8 reads (~14k tokens), then one turn whose output alone is ~18k tokens.
    const history = grow(session(8), 1, 1000);
    const prepared = await manager.prepare(history, context);
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(estimateNextRequest(request.messages, FIXED)).toBeLessThanOrEqual(manager.window.usable);
    expect(JSON.stringify(request.messages)).toContain("characters cut here to fit the context window");
    expect(request.messages.at(-1)!.content.at(-1)).toEqual(text(summaryPrompt({ maxWords: 1450 })));
    expect(prepared.compacted?.kind).toBe("summary");
    expect(prepared.tokens).toBeLessThanOrEqual(TARGET);
    expect(structureProblems(prepared.history)).toEqual([]);
  });

  it("when one new turn makes the history too long, summarises the request sent last and keeps the turn", async () => {
    const { manager, requests, context } = setup();
    const sent = await manager.prepare(session(8), context);
    const history = grow(sent.history, 1, 600);
    const prepared = await manager.prepare(history, context);
    expect(requests).toHaveLength(1);
    // The summary request is the last request, unchanged, plus the instruction: all of it cached.
    const request = requests[0]!;
    expect(request.messages).toHaveLength(sent.history.length);
    expectSameMessages(request.messages.slice(0, -1), sent.history);
    expect(request.messages.at(-1)!.content.slice(0, -1)).toEqual(sent.history.at(-1)!.content);
    expect(prepared.compacted?.kind).toBe("summary");
    // The turn the summary did not see follows it (its output shortened to fit the target).
    expect(prepared.history).toHaveLength(3);
    expect(prepared.history[1]).toBe(history.at(-2));
    expect(JSON.stringify(prepared.history[2])).toContain("characters cut here");
    expect(prepared.tokens).toBeLessThanOrEqual(TARGET);
    expect(structureProblems(prepared.history)).toEqual([]);
  });

  it("truncates without asking for a summary when even shortened outputs cannot fit", async () => {
    const { manager, requests, context } = setup();
    // The model's own long messages are never shortened.
    const history: LlmMessage[] = [task()];
    for (let i = 0; i < 12; i++) {
      history.push(
        assistant(text(numberedLines(150, i))),
        user(text(`<user_message>go on ${i}</user_message>`)),
      );
    }
    const prepared = await manager.prepare(deepFreeze(history), context);
    expect(requests).toHaveLength(0);
    expect(prepared.compacted?.kind).toBe("truncation");
    expect(prepared.tokens).toBeLessThanOrEqual(TARGET);
    expect(structureProblems(prepared.history)).toEqual([]);
  });

  it("replaces duplicate reads only once the threshold is reached, then keeps those copies", async () => {
    const { manager, requests, context } = setup();
    const file = numberedLines(100, 7);
    let history: LlmMessage[] = [task()];
    for (let i = 0; i < 5; i++) history.push(...toolTurn([read("src/same.ts", file)]));
    history = deepFreeze(history);
    const below = await manager.prepare(history, context);
    expect(below.deduplicated).toBeUndefined();
    expectSameMessages(below.history, history);
    // Five more reads of the same file pass the threshold; removing the copies is enough.
    for (let i = 0; i < 6; i++) history = deepFreeze([...history, ...toolTurn([read("src/same.ts", file)])]);
    const deduped = await manager.prepare(history, context);
    expect(requests).toHaveLength(0);
    expect(deduped.compacted).toBeUndefined();
    expect(deduped.deduplicated).toBe(10);
    expect(deduped.tokens).toBeLessThan(below.tokens);
    // A later read of the same file leaves the earlier replacements as they were sent.
    const later = deepFreeze([...history, ...toolTurn([read("src/same.ts", file)])]);
    const next = await manager.prepare(later, context);
    expectSameMessages(next.history.slice(0, deduped.history.length), deduped.history);
    expect(next.history.at(-1)).toBe(later.at(-1));
  });

  it("replaces duplicate reads on every request in eager mode", async () => {
    const { manager, context } = setup({ dedupe: "eager" });
    const file = numberedLines(30);
    const history = deepFreeze([task(), ...toolTurn([read("a", file)]), ...toolTurn([read("a", file)])]);
    const prepared = await manager.prepare(history, context);
    expect(prepared.history[2]).not.toBe(history[2]);
    expect(JSON.stringify(prepared.history[2])).toContain("Older copy of a removed");
  });

  it("compacts on demand, with the person's focus in the summary request", async () => {
    const { manager, requests, context } = setup();
    const history = session(3, 10);
    const prepared = await manager.prepare(history, { ...context, force: true, focus: "the parser bug" });
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests[0]!.messages.at(-1))).toContain("Give the most room to: the parser bug");
    expect(prepared.compacted).toMatchObject({ kind: "summary", removed: 4 });
    expect(structureProblems(prepared.history)).toEqual([]);
    expect(prepared.history).toHaveLength(3);
  });

  it("leaves a history with nothing older than the latest turn, shortening only what does not fit", async () => {
    const { manager, requests, context } = setup();
    const small = session(1, 10);
    expect((await manager.prepare(small, { ...context, force: true })).compacted).toBeUndefined();
    const huge = session(1, 2000);
    const prepared = await manager.prepare(huge, context);
    expect(requests).toHaveLength(0);
    expect(prepared.compacted).toEqual({ kind: "truncation", removed: 0 });
    expect(prepared.tokens).toBeLessThanOrEqual(manager.window.usable);
  });

  it("after an overflow the provider reported, compacts and keeps later requests below what was refused", async () => {
    const { manager, requests, context } = setup();
    const history = session(9);
    const refused = await manager.prepare(history, context);
    expect(refused.compacted).toBeUndefined();
    const prepared = await manager.prepare(history, { ...context, overflowed: true });
    const usable = Math.floor(refused.tokens * 0.9);
    expect(manager.window.usable).toBe(usable);
    expect(manager.window.threshold).toBe(Math.floor(usable * 0.8));
    expect(requests).toHaveLength(1);
    expect(estimateNextRequest(requests[0]!.messages, FIXED)).toBeLessThanOrEqual(usable);
    expect(prepared.compacted?.kind).toBe("summary");
    expect(prepared.tokens).toBeLessThanOrEqual(usable * 0.4);
    expect(manager.meter()).toContain(`/ ${usable.toLocaleString("en-US")} tokens`);
  });
});

import { estimateTokenCount } from "tokenx";
import { describe, expect, it } from "vitest";
import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateNextRequest,
  estimateToolTokens,
  IMAGE_TOKENS,
} from "../../../src/agent/context/index.js";
import type { LlmMessage, LlmToolDefinition } from "../../../src/llm/types.js";
import { assistant, numberedLines, read, task, text, toolTurn, user } from "./histories.js";

const TOOLS: LlmToolDefinition[] = [
  {
    name: "read_file",
    description: "Read a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

/** A count from scratch: structurally equal messages that are new objects, so no cache applies. */
const recount = (messages: readonly LlmMessage[]) => estimateMessagesTokens(structuredClone(messages));

function session(turns: number): LlmMessage[] {
  const history: LlmMessage[] = [task()];
  for (let i = 0; i < turns; i++) history.push(...toolTurn([read(`src/m${i}.ts`, numberedLines(40 + i, i))]));
  return history;
}

describe("token estimates", () => {
  it("counts text with tokenx, images as a fixed amount, and tool calls and results with their framing", () => {
    const words = "The quick brown fox jumps over the lazy dog.";
    expect(estimateMessageTokens(user(text(words)))).toBe(4 + estimateTokenCount(words));
    const image = user({ type: "image", mediaType: "image/png", data: "A".repeat(400_000) });
    expect(estimateMessageTokens(image)).toBe(4 + IMAGE_TOKENS);
    const [call, result] = toolTurn([read("src/a.ts", numberedLines(20))]);
    expect(estimateMessageTokens(call!)).toBeGreaterThan(estimateTokenCount('{"path":"src/a.ts"}'));
    expect(estimateMessageTokens(result!)).toBeGreaterThanOrEqual(estimateTokenCount(numberedLines(20)));
  });

  it("counts each message once, and the incremental count matches a full recount", () => {
    const history = session(30);
    // Messages are immutable, so a second count of the same object must not read it again.
    const probe = user(text("short"));
    const once = estimateMessageTokens(probe);
    (probe.content[0] as { text: string }).text = "much longer ".repeat(100);
    expect(estimateMessageTokens(probe)).toBe(once);
    const before = estimateMessagesTokens(history);
    expect(before).toBe(recount(history));
    history.push(...toolTurn([read("src/late.ts", numberedLines(100))]));
    expect(estimateMessagesTokens(history)).toBe(recount(history));
    expect(estimateMessagesTokens(history) - before).toBe(
      estimateMessageTokens(history.at(-2)!) + estimateMessageTokens(history.at(-1)!),
    );
  });

  it("uses the provider's count of the last request and estimates only what was appended", () => {
    const sent = session(10);
    const fixed = 500 + estimateToolTokens(TOOLS);
    const usage = { inputTokens: 120, outputTokens: 300, cacheReadTokens: 9_000, cacheWriteTokens: 800 };
    const next = [...sent, ...toolTurn([read("src/new.ts", numberedLines(60))])];
    const appended = estimateMessageTokens(next.at(-2)!) + estimateMessageTokens(next.at(-1)!);
    expect(estimateNextRequest(next, fixed, { messages: sent, fixedTokens: fixed, usage })).toBe(
      9_920 + appended,
    );
    // A changed system prompt or tool set shifts the count by the difference of the estimates.
    expect(estimateNextRequest(next, fixed + 50, { messages: sent, fixedTokens: fixed, usage })).toBe(
      9_970 + appended,
    );
  });

  it("falls back to a full estimate when the history is no longer an extension of what was sent", () => {
    const sent = session(5);
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 1, cacheWriteTokens: 1 };
    const rewritten = [sent[0]!, ...sent.slice(3)];
    expect(estimateNextRequest(rewritten, 100, { messages: sent, fixedTokens: 100, usage })).toBe(
      100 + recount(rewritten),
    );
    // Structurally equal is not enough: identity says the provider counted these messages.
    const copies = structuredClone(sent);
    expect(estimateNextRequest(copies, 100, { messages: sent, fixedTokens: 100, usage })).toBe(
      100 + recount(copies),
    );
    expect(estimateNextRequest([...sent, assistant(text("x"))], 100)).toBe(
      100 + recount([...sent, assistant(text("x"))]),
    );
  });

  it("counts tool definitions once each", () => {
    const tokens = estimateToolTokens(TOOLS);
    expect(tokens).toBeGreaterThan(estimateTokenCount(TOOLS[0]!.description));
    expect(estimateToolTokens([...TOOLS, ...TOOLS])).toBe(2 * tokens);
  });
});

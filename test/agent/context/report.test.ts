/**
 * The context report: the parts of a request by the token estimator, disjoint and adding up to
 * the estimate of the whole request; file reads told from other tool results, natively and in
 * the XML protocol; the summary of a compaction; the provider's count of the last request.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contextReport,
  estimateMessagesTokens,
  estimateTextTokens,
  estimateToolTokens,
  summaryMessage,
  usableWindow,
} from "../../../src/agent/context/index.js";
import { xmlResultBlocks } from "../../../src/agent/tool-offer.js";
import type { LlmMessage, LlmToolDefinition } from "../../../src/llm/types.js";
import { assistant, historyArbitrary, numberedLines, read, task, text, toolTurn, user } from "./histories.js";

const TOOLS: LlmToolDefinition[] = [
  { name: "read_file", description: "Read a file.", inputSchema: { type: "object", properties: {} } },
  { name: "run", description: "Run a command.", inputSchema: { type: "object", properties: {} } },
];
const SYSTEM = "You are a careful coding agent. Work in small steps and check each one.";
const WINDOW = usableWindow({ contextWindow: 200_000, maxOutputTokens: 8192 });

const tokensOf = (report: ReturnType<typeof contextReport>) =>
  Object.fromEntries(report.parts.map((part) => [part.name, part.tokens]));

describe("contextReport", () => {
  it("splits a native history into disjoint parts that add up to the request's estimate", () => {
    const file = numberedLines(80);
    const output = "PASS 12 tests\n".repeat(20);
    const history: LlmMessage[] = [
      task(),
      ...toolTurn([read("src/app.ts", file), { name: "run", input: { command: "npm test" }, output }]),
      assistant(text("The tests pass; one more check.")),
      user(text("<user_message>\nAlso update the README.\n</user_message>")),
    ];
    const report = contextReport({
      system: SYSTEM,
      tools: TOOLS,
      toolProtocol: "native",
      history,
      window: WINDOW,
    });
    const parts = tokensOf(report);

    expect(report.parts.map((part) => part.name)).toEqual([
      "system prompt",
      "tools",
      "user messages",
      "assistant messages",
      "tool results",
      "file reads",
    ]);
    expect(parts["system prompt"]).toBe(estimateTextTokens(SYSTEM));
    expect(parts.tools).toBe(estimateToolTokens(TOOLS));
    expect(parts["file reads"]).toBeGreaterThan(estimateTextTokens(file));
    expect(parts["tool results"]).toBeGreaterThan(estimateTextTokens(output));
    expect(parts["file reads"]! + parts["tool results"]!).toBeLessThan(
      estimateTextTokens(file) + estimateTextTokens(output) + 40,
    );
    expect(report.estimatedTokens).toBe(
      estimateTextTokens(SYSTEM) + estimateToolTokens(TOOLS) + estimateMessagesTokens(history),
    );
    expect(report).toMatchObject({
      contextWindow: 200_000,
      usableTokens: WINDOW.usable,
      compactAtTokens: WINDOW.threshold,
      messages: 5,
    });
    expect(report.lastPromptTokens).toBeUndefined();
  });

  it("counts a failed read as a tool result, not as file contents", () => {
    const history = [task(), ...toolTurn([{ ...read("gone.ts", "ENOENT: no such file"), isError: true }])];
    const report = contextReport({
      system: SYSTEM,
      tools: [],
      toolProtocol: "native",
      history,
      window: WINDOW,
    });
    expect(tokensOf(report)["file reads"]).toBeUndefined();
    expect(tokensOf(report)["tool results"]).toBeGreaterThan(0);
  });

  it("counts the XML tool section as tools and XML results by their header", () => {
    const section = "TOOL USE\n\n## read_file\nReads a file.\n<read_file><path>x</path></read_file>\n".repeat(
      5,
    );
    const system = `${SYSTEM}\n\n${section}`;
    const file = numberedLines(60);
    const call = { id: "xml_call_1", name: "read_file", input: { path: "src/a.ts" } };
    const history: LlmMessage[] = [
      task(),
      assistant(text("<read_file>\n<path>src/a.ts</path>\n</read_file>")),
      user(
        ...xmlResultBlocks(call, {
          type: "tool_result",
          callId: call.id,
          content: [
            { type: "text", text: file },
            { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
          ],
        }),
      ),
    ];
    const report = contextReport({
      system,
      toolSection: section,
      tools: [],
      toolProtocol: "xml",
      history,
      window: WINDOW,
    });
    const parts = tokensOf(report);

    expect(parts.tools).toBe(estimateTextTokens(section));
    expect(parts["system prompt"]).toBe(estimateTextTokens(system) - estimateTextTokens(section));
    // The image came with the read, so it counts there too.
    expect(parts["file reads"]).toBeGreaterThan(estimateTextTokens(file) + 1000);
    expect(parts["tool results"]).toBeUndefined();
  });

  it("reports the compaction summary and the provider's count of the last request", () => {
    const summary = "Goal: fix the parser. Done: the tokenizer. Next: the error messages.";
    const history = [summaryMessage(task(), summary, 12), ...toolTurn([read("src/p.ts", numberedLines(30))])];
    const report = contextReport({
      system: SYSTEM,
      tools: TOOLS,
      toolProtocol: "native",
      history,
      window: WINDOW,
      lastUsage: { inputTokens: 900, outputTokens: 50, cacheReadTokens: 4000, cacheWriteTokens: 100 },
    });
    expect(tokensOf(report)["compaction summary"]).toBeGreaterThan(estimateTextTokens(summary));
    expect(report.lastPromptTokens).toBe(5000);
  });

  it("always adds up to the estimate of the whole request", () => {
    fc.assert(
      fc.property(historyArbitrary, (history) => {
        const report = contextReport({
          system: SYSTEM,
          tools: TOOLS,
          toolProtocol: "native",
          history,
          window: WINDOW,
        });
        expect(report.estimatedTokens).toBe(
          estimateTextTokens(SYSTEM) + estimateToolTokens(TOOLS) + estimateMessagesTokens(history),
        );
        expect(report.parts.every((part) => part.tokens > 0)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});

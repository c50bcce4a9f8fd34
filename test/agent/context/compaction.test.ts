import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compactedHistory,
  estimateMessagesTokens,
  planCompaction,
  summaryPrompt,
  summaryRequest,
  taskContent,
  validCuts,
} from "../../../src/agent/context/index.js";
import type { LlmMessage, LlmToolDefinition } from "../../../src/llm/types.js";
import {
  assistant,
  deepFreeze,
  expectSameMessages,
  historyArbitrary,
  numberedLines,
  read,
  structureProblems,
  task,
  text,
  toolTurn,
  user,
} from "./histories.js";

const SYSTEM = "You are Bowline, a coding agent.";
const TOOLS: LlmToolDefinition[] = [
  { name: "read_file", description: "Read a file.", inputSchema: { type: "object", properties: {} } },
];

describe("the summary request", () => {
  it("is the normal request plus the instruction, appended to the last user message", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([read("src/a.ts", numberedLines(30))]),
      ...toolTurn([read("src/b.ts", numberedLines(30))]),
    ]);
    const request = summaryRequest(history, SYSTEM, TOOLS, { focus: "the parser", maxWords: 400 });
    expect(request.system).toBe(SYSTEM);
    expect(request.tools).toEqual(TOOLS);
    expect(request.messages).toHaveLength(history.length);
    // Every earlier message is the very object sent before (so the provider's cache matches it).
    expectSameMessages(request.messages.slice(0, -1), history);
    const last = request.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content.slice(0, -1)).toEqual(history.at(-1)!.content);
    expect(last.content.at(-1)).toEqual(text(summaryPrompt({ focus: "the parser", maxWords: 400 })));
  });

  it("adds a user message after an assistant message", () => {
    const history = deepFreeze([task(), assistant(text("Done."))]);
    const request = summaryRequest(history, SYSTEM, TOOLS);
    expect(request.messages.slice(0, 2)).toEqual(history);
    expect(request.messages[1]).toBe(history[1]);
    expect(request.messages[2]).toEqual(user(text(summaryPrompt())));
  });

  it("asks for goal, decisions, files, what is done, what is left and the next step, without tools", () => {
    const prompt = summaryPrompt({ focus: "keep the API notes" });
    for (const part of ["Goal", "Decisions", "Files", "Done", "Left", "Next step", "Do not call any tool"]) {
      expect(prompt).toContain(part);
    }
    expect(prompt).toContain("keep the API notes");
  });
});

describe("planCompaction", () => {
  it("keeps the most recent turns that fit, starting at an assistant message", () => {
    const history = deepFreeze([
      task(),
      ...toolTurn([read("a", numberedLines(200))]),
      ...toolTurn([read("b", numberedLines(20))]),
      ...toolTurn([read("c", numberedLines(20))]),
    ]);
    const lastTwo = estimateMessagesTokens(history.slice(3));
    expect(planCompaction(history, lastTwo)).toEqual({ keepFrom: 3, removed: 2, fits: true });
    expect(planCompaction(history, 10)).toEqual({ keepFrom: 5, removed: 4, fits: false });
    // Nothing between the task and the latest turn: nothing to replace.
    expect(planCompaction(history.slice(0, 3), 1_000_000)).toBeUndefined();
  });

  it("replaces the older turns with the summary after the task, and removes an earlier summary", () => {
    const history = deepFreeze([task(), ...toolTurn([read("a", "x")]), ...toolTurn([read("b", "y")])]);
    const plan = planCompaction(history, 1_000_000)!;
    const once = compactedHistory(history, plan, "Summary one.");
    expect(once).toHaveLength(3);
    expect(once[0]!.content[0]).toBe(history[0]!.content[0]);
    expect(once[0]!.content[1]).toMatchObject({
      type: "text",
      text: expect.stringContaining("Summary one."),
    });
    expect(once[0]!.content[1]).toMatchObject({ text: expect.stringContaining("2 earlier messages") });
    expect(once.slice(1)).toEqual(history.slice(3));
    const longer = deepFreeze([...once, ...toolTurn([read("c", "z")])]);
    const twice = compactedHistory(longer, planCompaction(longer, 1_000_000)!, "Summary two.");
    expect(taskContent(twice[0]!)).toEqual(history[0]!.content);
    expect(JSON.stringify(twice[0])).not.toContain("Summary one.");
    expect(JSON.stringify(twice[0])).toContain("Summary two.");
  });

  it("keeps tool calls paired with their results and roles alternating (property)", () => {
    fc.assert(
      fc.property(historyArbitrary, fc.nat(20_000), (history, keepTokens) => {
        deepFreeze(history);
        const plan = planCompaction(history, keepTokens);
        if (!plan) {
          expect(validCuts(history).filter((k) => k >= 2)).toEqual([]);
          return;
        }
        const compacted = compactedHistory(history, plan, "The summary.");
        expect(structureProblems(compacted)).toEqual([]);
        expect(compacted[1]?.role).toBe("assistant");
        expect(compacted.slice(1)).toEqual(history.slice(plan.keepFrom));
        expectSameMessages(compacted.slice(1), history, plan.keepFrom);
        expect(plan.removed).toBeGreaterThanOrEqual(1);
        if (plan.fits)
          expect(estimateMessagesTokens(history.slice(plan.keepFrom))).toBeLessThanOrEqual(keepTokens);
        // The latest message is always kept.
        expect(compacted.at(-1)).toBe(history.at(-1));
      }),
      { numRuns: 300 },
    );
  });
});

describe("validCuts", () => {
  it("never cuts between a call and a result that comes later than the next message", () => {
    const [call] = toolTurn([read("a", "x")]);
    const id = (call!.content[1] as { id: string }).id;
    const history: LlmMessage[] = [
      task(),
      call!,
      user(text("(interrupted)")),
      assistant(text("retrying")),
      user({ type: "tool_result", callId: id, content: [text("late")] }),
      assistant(text("ok")),
      user(text("next")),
    ];
    expect(validCuts(history)).toEqual([1, 5]);
  });
});

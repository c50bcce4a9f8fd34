import { describe, expect, it } from "vitest";
import { createOutcomeBuilder, MAX_HOOK_CONTEXT_CHARS, noHooks } from "../../../src/agent/pipeline/hooks.js";

describe("the hook outcome builder", () => {
  it("chains input rewrites and joins contexts", () => {
    const builder = createOutcomeBuilder("PreToolUse");
    expect(builder.currentInput({ a: 0 })).toEqual({ a: 0 });
    expect(builder.add("h1", { type: "answer", input: { value: { a: 1 } }, context: "one" })).toBe(true);
    expect(builder.currentInput({ a: 0 })).toEqual({ a: 1 });
    expect(builder.add("h2", { type: "none" })).toBe(true);
    expect(builder.add("h3", { type: "answer", input: { value: null }, context: "two" })).toBe(true);
    expect(builder.currentInput({ a: 0 })).toBeNull();
    expect(builder.finish()).toEqual({ input: null, context: "one\n\ntwo", problems: [] });
  });

  it("stops at the first block", () => {
    const builder = createOutcomeBuilder("PostToolUse");
    builder.add("h1", { type: "answer", context: "kept" });
    expect(builder.add("h2", { type: "block", reason: "no" })).toBe(false);
    expect(builder.finish()).toEqual({
      block: { reason: "no", source: "h2" },
      context: "kept",
      problems: [],
    });
  });

  it("drops what an event does not honour, and says so", () => {
    const complete = createOutcomeBuilder("TaskComplete");
    expect(complete.add("h", { type: "block", reason: "no" })).toBe(true);
    complete.add("h", { type: "answer", input: { value: 1 }, context: "c" });
    expect(complete.finish()).toEqual({
      problems: [
        "h: blocking is not possible for TaskComplete; ignored",
        "h: rewriting the input is only possible for PreToolUse; ignored",
        "h: adding context is not possible for TaskComplete; ignored",
      ],
    });
  });

  it("cuts an oversized context", () => {
    const builder = createOutcomeBuilder("UserPromptSubmit");
    builder.add("h", { type: "answer", context: "x".repeat(MAX_HOOK_CONTEXT_CHARS + 10) });
    const outcome = builder.finish();
    expect(outcome.context).toHaveLength(MAX_HOOK_CONTEXT_CHARS);
    expect(outcome.problems).toEqual([`hook context cut to ${MAX_HOOK_CONTEXT_CHARS} characters`]);
  });

  it("noHooks has no opinion", async () => {
    expect(await noHooks.run("TaskStart", { taskId: "t", prompt: "p" })).toEqual({ problems: [] });
  });
});

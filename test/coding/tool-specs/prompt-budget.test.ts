import { describe, expect, it } from "vitest";
import { benchPromptBudget } from "../../../bench/prompt-budget.js";

describe("prompt budget", () => {
  it("keeps the default and compact prompts (tools included) within their token targets", async () => {
    const result = await benchPromptBudget(50);
    expect(result.default.variant).toBe("native");
    expect(result.default.totalTokens).toBeLessThan(result.targets.defaultTokens);
    expect(result.compact.totalTokens).toBeLessThan(result.targets.compactTokens);
    expect(result.compact.tools).toHaveLength(8);
  });
});

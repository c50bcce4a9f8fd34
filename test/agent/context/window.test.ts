import { describe, expect, it } from "vitest";
import { tokenMeter, usableWindow } from "../../../src/agent/context/index.js";
import { lookupModel } from "../../../src/llm/catalogue.js";

describe("usableWindow", () => {
  it("keeps the reply (at most a fifth of the window) and a 5% margin out of the window", () => {
    // Claude Sonnet 4.5: 200k window, 64k max output -> 40k reserved (the 20% cap).
    expect(usableWindow({ contextWindow: 200_000, maxOutputTokens: 64_000 })).toEqual({
      contextWindow: 200_000,
      reservedOutput: 40_000,
      safetyMargin: 10_000,
      usable: 150_000,
      threshold: 120_000,
    });
    // GPT-4o: 128k window, 16k max output -> the whole max output fits under the cap.
    const gpt4o = usableWindow({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(gpt4o.reservedOutput).toBe(16_384);
    expect(gpt4o.usable).toBe(128_000 - 16_384 - 6_400);
    // A 32k local model with 8k replies: 6,400 reserved.
    const small = usableWindow({ contextWindow: 32_000, maxOutputTokens: 8192 });
    expect(small.usable).toBe(32_000 - 6_400 - 1_600);
    expect(small.threshold).toBe(Math.floor(small.usable * 0.8));
  });

  it("takes the reserve, margin and threshold from options", () => {
    const window = usableWindow(
      { contextWindow: 100_000, maxOutputTokens: 8_000 },
      { reservedOutput: 4_000, safetyMargin: 1_000, threshold: 0.5 },
    );
    expect(window.usable).toBe(95_000);
    expect(window.threshold).toBe(47_500);
    expect(() => usableWindow({ contextWindow: 1000, maxOutputTokens: 100 }, { threshold: 1.5 })).toThrow(
      RangeError,
    );
    expect(() => usableWindow({ contextWindow: 1000, maxOutputTokens: 100 }, { threshold: 0 })).toThrow(
      RangeError,
    );
  });

  it("works from the catalogue's entries, known and unknown", () => {
    const known = lookupModel("anthropic", "claude-sonnet-4-5");
    expect(known.known).toBe(true);
    const window = usableWindow(known.info);
    expect(window.usable).toBeGreaterThan(0);
    expect(window.usable + window.reservedOutput + window.safetyMargin).toBe(known.info.contextWindow);
    const unknown = usableWindow(lookupModel("some-server", "mystery-model-7b").info);
    expect(unknown.contextWindow).toBe(128_000);
    expect(unknown.reservedOutput).toBe(8192);
  });
});

describe("tokenMeter", () => {
  it("shows the estimate against the usable window", () => {
    expect(tokenMeter(41_200, { usable: 160_000 })).toBe("Context: 41,200 / 160,000 tokens (26%)");
    expect(tokenMeter(0, { usable: 24_000 })).toBe("Context: 0 / 24,000 tokens (0%)");
  });
});

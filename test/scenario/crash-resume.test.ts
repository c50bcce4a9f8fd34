/**
 * The crash test at a reduced size (the full 50 kills run in `npm run bench`): a session
 * SIGKILLed at random moments and resumed each time completes with every step in its history
 * once, no step run twice, and no corrupted journal line.
 */
import { describe, expect, it } from "vitest";
import { runCrashSession } from "../support/crash-session.js";

describe("kill and resume, again and again", () => {
  it("ends with every step once and an intact journal", async () => {
    const steps = 12;
    const result = await runCrashSession({ steps, kills: 8, seed: 5 });

    expect(result.kills).toBe(8);
    expect(result.completed).toBe(true);
    expect(result.corruptLines).toBe(0);
    expect(result.duplicatedSteps).toBe(0);
    // Every step was called exactly once, in order, in the final conversation.
    expect(result.stepsInHistory).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
    // A step killed before its command ran is reported interrupted, not silently re-run.
    expect(result.stepLines.length).toBeLessThanOrEqual(steps);
  }, 120_000);
});

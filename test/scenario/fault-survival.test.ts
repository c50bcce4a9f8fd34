/**
 * A long session with provider faults on a fifth of the requests (every kind the fake server
 * injects) ends exactly like the same session without faults: every step ran once, the
 * conversation journal is identical, and the UI journal differs only by the retry notices.
 */
import { describe, expect, it } from "vitest";
import { runFaultSurvival } from "../support/fault-session.js";

describe("fault survival", () => {
  it("a 30-turn session with 20% faults matches the fault-free run", async () => {
    const result = await runFaultSurvival({ turns: 30, faultRate: 0.2, seed: 11 });

    expect(result.faulty.faultsInjected).toBeGreaterThan(3);
    expect(result.faulty.status).toBe("completed");
    expect(result.faulty.requests).toBe(result.clean.requests + result.faulty.faultsInjected);
    expect(result.duplicatedToolRuns).toBe(0);
    expect(result.stepsComplete).toBe(true);
    expect(result.faulty.apiHistory).toEqual(result.clean.apiHistory);
    expect(result.faulty.uiPayloads).toEqual(result.clean.uiPayloads);
    expect(result.faulty.retryMessages).toBe(result.faulty.faultsInjected);
  }, 60_000);
});

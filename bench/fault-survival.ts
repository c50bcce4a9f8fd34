import { runFaultSurvival } from "../test/support/fault-session.js";
import { round } from "./support.js";

/**
 * Fault survival: a scripted 100-turn session with a provider fault on 20% of the requests
 * (HTTP 500/529/429, resets before and during the stream, truncated and stalled streams)
 * against the same session without faults, run back to back.
 */
export async function benchFaultSurvival(turns = 100, faultRate = 0.2) {
  const started = performance.now();
  const result = await runFaultSurvival({ turns, faultRate, seed: 2026 });
  return {
    turns,
    faultRate,
    faultsInjected: result.faulty.faultsInjected,
    requests: { clean: result.clean.requests, faulty: result.faulty.requests },
    completed: result.faulty.status === "completed",
    duplicatedToolRuns: result.duplicatedToolRuns,
    apiHistoryIdentical: result.apiHistoryIdentical,
    uiIdenticalApartFromRetries: result.uiIdenticalApartFromRetries,
    retryMessages: result.faulty.retryMessages,
    wallSeconds: round((performance.now() - started) / 1000, 2),
    met: {
      survives:
        result.faulty.status === "completed" &&
        result.duplicatedToolRuns === 0 &&
        result.stepsComplete &&
        result.apiHistoryIdentical &&
        result.uiIdenticalApartFromRetries,
    },
  };
}

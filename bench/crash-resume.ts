import { runCrashSession } from "../test/support/crash-session.js";
import { round } from "./support.js";

/** The crash test at full size: 50 SIGKILLs at random moments, each followed by `-p --continue`. */
export async function benchCrashResume(kills = 50, steps = 40) {
  const started = performance.now();
  const result = await runCrashSession({ steps, kills, seed: 2026 });
  const inOrder =
    JSON.stringify(result.stepsInHistory) === JSON.stringify(Array.from({ length: steps }, (_, i) => i + 1));
  return {
    kills: result.kills,
    resumes: result.resumes,
    steps,
    stepsThatRan: result.stepLines.length,
    duplicatedSteps: result.duplicatedSteps,
    corruptLines: result.corruptLines,
    everyStepOnceInHistory: inOrder,
    wallSeconds: round((performance.now() - started) / 1000, 1),
    met: {
      survives: result.completed && result.duplicatedSteps === 0 && result.corruptLines === 0 && inOrder,
    },
  };
}

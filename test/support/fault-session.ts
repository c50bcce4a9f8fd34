/**
 * A long scripted coding session run twice, in-process with the real task session (coding
 * tools, journal, Anthropic adapter): once without faults and once with provider faults
 * injected on a share of the requests. Each turn appends one numbered line to a file through
 * `execute_command`, so a tool run twice shows in the file. Used by the fault-survival
 * benchmark and its test.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNonInteractivePolicy } from "../../src/coding/approval-rules.js";
import { createTaskSession } from "../../src/coding/controller.js";
import { fakeAnthropicConfig, type ScriptedTurn, startFakeModelServer } from "./fake-model-server.js";
import { seededRandom } from "./seeded-random.js";

const FAULTS: Array<NonNullable<ScriptedTurn["fault"]>> = [
  { kind: "http", status: 500 },
  { kind: "http", status: 529, message: "Overloaded" },
  { kind: "http", status: 429, retryAfterSeconds: 0 },
  { kind: "reset" },
  { kind: "drop", afterChunks: 6 },
  { kind: "truncate", afterChunks: 6 },
  { kind: "stall", afterChunks: 4 },
];

function turnFor(index: number, turns: number): ScriptedTurn {
  if (index >= turns - 1) {
    return { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "all steps" } }] };
  }
  const step = index + 1;
  return {
    text: `Step ${step}: recording it.`,
    // Fixed ids: the fake server would otherwise number the calls of faulted replies too.
    toolCalls: [
      {
        id: `toolu_step_${step}`,
        name: "execute_command",
        input: { command: `echo step ${step} >> steps.log` },
      },
    ],
    usage: { inputTokens: 500, outputTokens: 20 },
  };
}

export interface SessionRun {
  status: string;
  requests: number;
  faultsInjected: number;
  /** The lines `steps.log` ended with: one per tool execution. */
  steps: string[];
  /** The journal's conversation and UI records, with what differs between runs normalised. */
  apiHistory: string[];
  uiPayloads: string[];
  retryMessages: number;
}

async function runSession(turns: number, faultRate: number, seed: number): Promise<SessionRun> {
  const root = mkdtempSync(join(tmpdir(), "bowline-faults-"));
  const repo = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(repo);
  writeFileSync(join(repo, "README.md"), "A repository for the fault-survival session.\n");
  const random = seededRandom(seed);
  let turn = 0;
  let faultsInjected = 0;
  const server = await startFakeModelServer({
    chunkSize: 12,
    // A faulty request does not advance the script: its retry gets the same turn.
    script: () => {
      const scripted = turnFor(turn, turns);
      if (faultRate > 0 && random() < faultRate) {
        faultsInjected++;
        return { ...scripted, fault: FAULTS[Math.floor(random() * FAULTS.length)] };
      }
      turn++;
      return scripted;
    },
  });
  const session = await createTaskSession({
    cwd: repo,
    home,
    modelConfig: fakeAnthropicConfig(server.url, "fake-model"),
    policy: createNonInteractivePolicy({ yes: true, allow: [] }),
    interactive: false,
    emit: () => {},
    retry: { attempts: 6, baseDelayMs: 5, maxDelayMs: 50 },
    streamIdleTimeoutMs: 250,
  });
  try {
    const outcome = await session.run("Record every step.");
    const taskDir = session.taskDir;
    await session.close();
    // Paths and timings differ between any two runs.
    const normalise = (text: string) =>
      text
        .replaceAll(repo, "<repo>")
        .replace(/"durationMs":\d+/g, '"durationMs":0')
        .replace(/"checkpointId":"[0-9a-f]+"/g, '"checkpointId":"<id>"');
    const lines = (file: string) =>
      readFileSync(join(taskDir, file), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    const ui = lines("ui_messages.jsonl");
    // The UI as a reader of the journal rebuilds it: each message in its latest state.
    const latest = new Map<string, any>();
    for (const record of ui) latest.set(record.message.id, record.message);
    const kept = [...latest.values()].filter(
      (m) => !m.discarded && !(m.type === "say" && ["api_retry", "api_request"].includes(m.payload.say)),
    );
    return {
      status: outcome.status,
      requests: server.requests.length,
      faultsInjected,
      steps: readFileSync(join(repo, "steps.log"), "utf8").split("\n").filter(Boolean),
      apiHistory: lines("api_history.jsonl").map((r) => normalise(JSON.stringify(r.message))),
      uiPayloads: kept.map((m) => normalise(JSON.stringify(m.payload))),
      retryMessages: ui.filter((r) => r.message.type === "say" && r.message.payload.say === "api_retry")
        .length,
    };
  } finally {
    await server.close();
  }
}

/** Both runs and how they compare. */
export async function runFaultSurvival(options: { turns: number; faultRate: number; seed: number }) {
  const clean = await runSession(options.turns, 0, options.seed);
  const faulty = await runSession(options.turns, options.faultRate, options.seed);
  const expected = Array.from({ length: options.turns - 1 }, (_, i) => `step ${i + 1}`);
  const duplicates = faulty.steps.length - new Set(faulty.steps).size;
  const firstDifference = (a: string[], b: string[]) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
    return -1;
  };
  return {
    clean,
    faulty,
    duplicatedToolRuns: duplicates,
    stepsComplete: JSON.stringify(faulty.steps) === JSON.stringify(expected),
    apiHistoryIdentical: firstDifference(clean.apiHistory, faulty.apiHistory) === -1,
    uiIdenticalApartFromRetries: firstDifference(clean.uiPayloads, faulty.uiPayloads) === -1,
    firstUiDifference: firstDifference(clean.uiPayloads, faulty.uiPayloads),
  };
}

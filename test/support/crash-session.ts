/**
 * The crash test: a scripted session through the real CLI, SIGKILLed at random moments and
 * resumed with `-p --continue` each time, until it completes. Each step appends one line to a
 * file through `execute_command`, so a step run twice shows. Used by a scenario test (few kills)
 * and a benchmark (50 kills).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type CliRun, makeWorkspace, runCli } from "./cli.js";
import { type RecordedRequest, type ScriptedTurn, startFakeModelServer } from "./fake-model-server.js";
import { seededRandom } from "./seeded-random.js";

/** The model's next step: one more than the steps already called in the conversation. */
function scriptFor(steps: number) {
  return (request: RecordedRequest): ScriptedTurn => {
    const called = (request.body.messages as any[])
      .filter((m) => m.role === "assistant")
      .flatMap((m) => m.content)
      .filter((b: any) => b.type === "tool_use" && String(b.id).startsWith("toolu_step_")).length;
    if (called >= steps) {
      return {
        toolCalls: [
          {
            id: `toolu_done_${request.receivedAt}`,
            name: "attempt_completion",
            input: { result: "all steps" },
          },
        ],
      };
    }
    const step = called + 1;
    return {
      text: `Step ${step}.`,
      chunkDelayMs: 5,
      toolCalls: [
        {
          id: `toolu_step_${step}`,
          name: "execute_command",
          input: { command: `echo step ${step} >> steps.log; sleep 0.05` },
        },
      ],
    };
  };
}

export interface CrashRunResult {
  kills: number;
  resumes: number;
  completed: boolean;
  /** Lines of steps.log: one per step that ran. */
  stepLines: string[];
  duplicatedSteps: number;
  /** Complete journal lines that failed to parse (a torn last line is allowed). */
  corruptLines: number;
  /** Step numbers called in the final conversation, in order. */
  stepsInHistory: number[];
}

export async function runCrashSession(options: {
  steps: number;
  kills: number;
  seed: number;
}): Promise<CrashRunResult> {
  const random = seededRandom(options.seed);
  const server = await startFakeModelServer({ script: scriptFor(options.steps), chunkSize: 4 });
  const { repo, home } = makeWorkspace();
  const env = { ANTHROPIC_API_KEY: "sk-ant-crash", BOWLINE_HOME: home };
  const flags = ["--provider", "anthropic", "--base-url", server.url, "--model", "fake-model", "--yes"];
  let kills = 0;
  let resumes = 0;
  let last: CliRun | undefined;
  try {
    for (let attempt = 0; attempt < options.kills + 20; attempt++) {
      // A run killed before its task was written (a slow start) left nothing to continue.
      const first = startedTasks(home).length === 0;
      const args = first ? ["-p", "Record every step.", ...flags] : ["-p", "--continue", ...flags];
      if (!first) resumes++;
      const killAfter = kills < options.kills ? 150 + random() * 600 : undefined;
      last = await runCli([...args, "--output-format", "json"], {
        cwd: repo,
        env,
        timeoutMs: 60_000,
        onSpawn: (child) => {
          if (killAfter !== undefined) setTimeout(() => child.kill("SIGKILL"), killAfter);
        },
      });
      if (last.signal === "SIGKILL") {
        kills++;
        continue;
      }
      if (last.code === 0) break;
      throw new Error(`run ${attempt} failed (${last.code}): ${last.stderr}`);
    }
    const taskDirs = startedTasks(home);
    if (taskDirs.length !== 1) throw new Error(`expected one task, found ${taskDirs.length}`);
    const taskDir = join(home, "tasks", taskDirs[0]!);
    let corruptLines = 0;
    for (const file of ["api_history.jsonl", "ui_messages.jsonl"]) {
      const lines = readFileSync(join(taskDir, file), "utf8").split("\n");
      lines.pop(); // after the last newline: empty, or a torn line
      for (const line of lines) {
        try {
          JSON.parse(line);
        } catch {
          corruptLines++;
        }
      }
    }
    const stepLines = readFileSync(join(repo, "steps.log"), "utf8").split("\n").filter(Boolean);
    const finalRequest = server.requests.at(-1)!;
    const stepsInHistory = (finalRequest.body.messages as any[])
      .filter((m) => m.role === "assistant")
      .flatMap((m) => m.content)
      .filter((b: any) => b.type === "tool_use" && String(b.id).startsWith("toolu_step_"))
      .map((b: any) => Number(String(b.id).slice("toolu_step_".length)));
    return {
      kills,
      resumes,
      completed: last?.code === 0,
      stepLines,
      duplicatedSteps: stepLines.length - new Set(stepLines).size,
      corruptLines,
      stepsInHistory,
    };
  } finally {
    await server.close();
  }
}

/** The task folders that hold a started task (its task.json written). */
function startedTasks(home: string): string[] {
  const root = join(home, "tasks");
  if (!existsSync(root)) return [];
  return readdirSync(root).filter((name) => existsSync(join(root, name, "task.json")));
}

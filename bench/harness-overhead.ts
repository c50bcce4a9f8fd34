import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ScriptedTurn, startFakeModelServer } from "../test/support/fake-model-server.js";
import { CLI, median, percentile, round, runProcess } from "./support.js";

export interface HarnessOverheadOptions {
  turns: number;
  format: "anthropic" | "openai";
  /** Extra node flags for the CLI process (for experiments). */
  nodeFlags?: string[];
  /** The V8 code-cache folder (XDG_CACHE_HOME) to use; share one across runs to measure warm starts. */
  cacheHome?: string;
}

/**
 * A long scripted print-mode session whose tool calls cost almost nothing (reading a tiny
 * file), measuring the harness: the time from the end of one streamed reply to the start of
 * the next request, its growth with history, peak memory, and journal write amplification.
 */
export async function benchHarnessOverhead(options: HarnessOverheadOptions) {
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-"));
  const repo = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "note.txt"), "a small file\n");
  const script = (_request: unknown, index: number): ScriptedTurn =>
    index < options.turns - 1
      ? {
          text: `Step ${index + 1}: reading the note again.`,
          toolCalls: [
            { name: "read_file", input: { path: "note.txt", start_line: 1, end_line: (index % 3) + 1 } },
          ],
          usage: { inputTokens: 1000, outputTokens: 30 },
        }
      : { text: "Done.", toolCalls: [{ name: "attempt_completion", input: { result: "finished" } }] };
  const server = await startFakeModelServer({ script, chunkSize: 16 });
  try {
    const baseUrl = options.format === "anthropic" ? server.url : `${server.url}/v1`;
    const keyVar = options.format === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    const run = await runProcess(
      process.execPath,
      [
        CLI,
        "-p",
        "benchmark task",
        "--provider",
        options.format,
        "--base-url",
        baseUrl,
        "--model",
        "bench",
        "--yes",
        "--output-format",
        "json",
      ],
      {
        cwd: repo,
        env: { PATH: process.env.PATH, HOME: root, BOWLINE_HOME: home, [keyVar]: "bench-key" },
        sampleMs: 10,
      },
    );
    if (run.code !== 0) throw new Error(`bench session failed (${run.code}): ${run.stderr}`);
    const requests = server.requests;
    const gaps: number[] = [];
    for (let i = 0; i + 1 < requests.length; i++) {
      const end = requests[i]!.respondedAt;
      if (end !== undefined) gaps.push(requests[i + 1]!.receivedAt - end);
    }
    const first = gaps.slice(0, 20);
    const last = gaps.slice(-20);
    const journalBytes = folderBytes(join(home, "tasks"));
    const result = JSON.parse(run.stdout) as { journalBytesWritten: number; status: string };
    return {
      format: options.format,
      turns: requests.length,
      overheadMs: {
        median: round(median(gaps), 3),
        p90: round(percentile(gaps, 90), 3),
        firstTwentyMedian: round(median(first), 3),
        lastTwentyMedian: round(median(last), 3),
        growthLastOverFirst: round(median(last) / median(first), 2),
      },
      peakRssMb: round(run.peakRssBytes / 1024 / 1024, 1),
      rssTrace: run.rssTrace.filter((_, i) => i % 10 === 0),
      journal: {
        finalBytes: journalBytes,
        bytesWritten: result.journalBytesWritten,
        writtenOverFinal: round(result.journalBytesWritten / journalBytes, 3),
      },
      wallSeconds: round((run.endedAt - run.startedAt) / 1000, 2),
    };
  } finally {
    await server.close();
  }
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

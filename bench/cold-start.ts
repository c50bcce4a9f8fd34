import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { CLI, median, now, round, runProcess } from "./support.js";

/**
 * Start-up cost: `bowline --version` beside bare `node -e 0`, and the time from process
 * start to the first model request in print mode. Runs are interleaved so machine noise
 * hits both sides alike.
 */
export async function benchColdStart(runs: number) {
  const env = { PATH: process.env.PATH, HOME: tmpdir() };
  const nodeTimes: number[] = [];
  const versionTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const bare = await runProcess(process.execPath, ["-e", "0"], { env });
    nodeTimes.push(bare.endedAt - bare.startedAt);
    const version = await runProcess(process.execPath, [CLI, "--version"], { env });
    if (version.code !== 0) throw new Error(`bowline --version failed: ${version.stderr}`);
    versionTimes.push(version.endedAt - version.startedAt);
  }

  const firstRequest: number[] = [];
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-start-"));
  // A private code cache: run 0 starts with none (a first start after install), the rest reuse it.
  const cacheEnv = { XDG_CACHE_HOME: join(root, "cache") };
  for (let i = 0; i <= runs; i++) {
    const server = await startFakeModelServer({
      script: [{ text: "ok", toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] }],
    });
    try {
      const startedAt = now();
      const run = await runProcess(
        process.execPath,
        [
          CLI,
          "-p",
          "hello",
          "--provider",
          "anthropic",
          "--base-url",
          server.url,
          "--model",
          "bench",
          "--output-format",
          "json",
        ],
        {
          cwd: root,
          env: { ...env, ...cacheEnv, BOWLINE_HOME: join(root, "home"), ANTHROPIC_API_KEY: "bench-key" },
        },
      );
      if (run.code !== 0) throw new Error(`print-mode run failed: ${run.stderr}`);
      firstRequest.push(server.requests[0]!.receivedAt - startedAt);
    } finally {
      await server.close();
    }
  }
  const [firstEver, ...warm] = firstRequest;
  const nodeMedian = median(nodeTimes);
  const versionMedian = median(versionTimes);
  return {
    runs,
    nodeEmptyMs: round(nodeMedian, 1),
    versionMs: round(versionMedian, 1),
    versionOverNode: round(versionMedian / nodeMedian, 2),
    firstRequestMs: round(median(warm), 1),
    firstRequestOverNode: round(median(warm) / nodeMedian, 2),
    firstRequestWithoutCodeCacheMs: round(firstEver!, 1),
  };
}

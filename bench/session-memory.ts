/**
 * The agent core's memory over a long session, with no UI: a real task session (the coding
 * tools, the journal, checkpoints) in a child process against the fake model server, each turn
 * a little text and a listing (of two folders in turn: the same call five times in a row is
 * stopped as a loop), as in bench/tui.ts. The child sets the V8 flags the CLI sets
 * (src/hosts/cli/v8-flags.ts) and runs with --expose-gc. It reports resident memory every 100 turns as it is (no forced collection), its
 * peak, and the heap still in use after a collection at the end: the first says what a user
 * sees, the last what the session really holds.
 *
 * `npx tsx bench/session-memory.ts [turns]`. BENCH_SNAPSHOT=<file> writes a heap snapshot of
 * the child at the end; BENCH_ALLOCATIONS=<file> a sampling profile of all its allocations.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { bundleEntry } from "../test/hosts/tui/pty.js";
import { makeWorkspace } from "../test/support/cli.js";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { longSessionScript, ROOT, round } from "./support.js";

/** A collector the child can call (it sets the CLI's V8 flags itself, as the CLI does). */
const NODE_FLAGS = ["--expose-gc"];
const targets = { rssMb: 200 };

interface Sample {
  turn: number;
  collected: boolean;
  rss: number;
  peakRss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export interface SessionMemoryOptions {
  /** Turns of the session (default 1000). */
  turns?: number;
  snapshotFile?: string;
  allocationsFile?: string;
}

export async function benchSessionMemory(options: SessionMemoryOptions = {}) {
  const turns = options.turns ?? 1000;
  const entry = await bundleEntry(join(import.meta.dirname, "session-memory-child.ts"));
  const server = await startFakeModelServer({ script: longSessionScript(turns) });
  const { repo, home } = makeWorkspace();
  const started = performance.now();
  try {
    const samples = await runChild(entry, repo, {
      BOWLINE_HOME: home,
      BOWLINE_MEM_BASE_URL: server.url,
      BOWLINE_MEM_SNAPSHOT: options.snapshotFile,
      BOWLINE_MEM_PROFILE: options.allocationsFile,
    });
    const seconds = (performance.now() - started) / 1000;
    const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
    const running = samples.filter((sample) => !sample.collected);
    const end = running.at(-1)!;
    const collected = samples.find((sample) => sample.collected)!;
    const lastRequest = server.requests.at(-1)?.body;
    return {
      turns,
      requests: server.requests.length,
      seconds: round(seconds, 1),
      lastRequestKb: round(JSON.stringify(lastRequest ?? {}).length / 1024, 1),
      samples: running.map((sample) => ({
        turn: sample.turn,
        rssMb: mb(sample.rss),
        heapUsedMb: mb(sample.heapUsed),
        heapTotalMb: mb(sample.heapTotal),
        externalMb: mb(sample.external),
        arrayBuffersMb: mb(sample.arrayBuffers),
      })),
      rssMb: mb(end.rss),
      peakRssMb: mb(end.peakRss),
      /** The heap the session holds: in use after a full collection. */
      heapHeldMb: mb(collected.heapUsed),
      heapHeldKbPerTurn: round((collected.heapUsed - running[0]!.heapUsed) / 1024 / turns, 2),
      targets,
      met: { rss: mb(end.rss) <= targets.rssMb },
    };
  } finally {
    await server.close();
  }
}

function runChild(entry: string, cwd: string, env: Record<string, string | undefined>): Promise<Sample[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, entry], {
      cwd,
      // The bundle leaves a few packages out; they are found through NODE_PATH, as in the CLI.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_PATH: join(ROOT, "node_modules"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`session-memory child exited with ${code}: ${stderr}`));
      resolve(
        stdout
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as Sample),
      );
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchSessionMemory({
    turns: process.argv[2] ? Number(process.argv[2]) : undefined,
    snapshotFile: process.env.BENCH_SNAPSHOT,
    allocationsFile: process.env.BENCH_ALLOCATIONS,
  });
  console.log(JSON.stringify(result, null, 2));
}

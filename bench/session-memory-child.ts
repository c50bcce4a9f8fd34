/**
 * The child of bench/session-memory.ts: one task session with nobody watching, run to its end
 * against the fake model server. Every `BOWLINE_MEM_EVERY` requests it prints the resident
 * memory and the heap as they are (no forced collection, so the numbers are what a user would
 * see), and at the end the same again after a collection, as JSON lines on stdout. Bundled like
 * the CLI, sets the CLI's V8 flags as it does, and runs with `--expose-gc`.
 *
 * Environment: BOWLINE_MEM_BASE_URL (the fake model server), BOWLINE_HOME, BOWLINE_MEM_EVERY
 * (default 100), BOWLINE_MEM_SNAPSHOT (a file: a heap snapshot at the end), BOWLINE_MEM_PROFILE
 * (a file: a sampling profile of every allocation of the session, collected or not, to find
 * what makes garbage).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { writeHeapSnapshot } from "node:v8";
import { createTaskSession } from "../src/coding/controller.js";
import { applyV8Flags } from "../src/hosts/cli/v8-flags.js";

// The V8 settings of the CLI, set the way it sets them.
applyV8Flags();
const env = process.env;
const every = Number(env.BOWLINE_MEM_EVERY ?? 100);

function sample(turn: number, collected: boolean) {
  if (collected) (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
  const status = readFileSync("/proc/self/status", "utf8");
  const peakRss = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  const line = { turn, collected, rss, peakRss, heapUsed, heapTotal, external, arrayBuffers };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Starts the sampling heap profiler; the returned function stops it and writes the profile. */
async function profileAllocations(file: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post("HeapProfiler.startSampling", {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = (await post("HeapProfiler.stopSampling")) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/** Top-level await is not available: the entry is bundled as CommonJS, like the CLI. */
async function main(): Promise<number> {
  let requests = 0;
  const session = await createTaskSession({
    cwd: process.cwd(),
    modelConfig: {
      provider: "anthropic",
      wireFormat: "anthropic-messages",
      model: "fake-model",
      apiKey: "sk-ant-bench",
      baseUrl: env.BOWLINE_MEM_BASE_URL,
    },
    home: env.BOWLINE_HOME,
    policy: () => ({ type: "allow" }),
    interactive: true,
    yolo: true,
    emit: (event) => {
      if (event.type !== "ui_message_added" || event.message.type !== "say") return;
      if (event.message.payload.say !== "api_request") return;
      requests++;
      // Taken as a request starts: the turns before it are over.
      if (requests % every === 1 && requests > 1) setImmediate(() => sample(requests - 1, false));
    },
  });
  sample(0, false);
  const stopProfile = env.BOWLINE_MEM_PROFILE ? await profileAllocations(env.BOWLINE_MEM_PROFILE) : undefined;
  const outcome = await session.run("Look at the files, again and again.");
  await stopProfile?.();
  await session.close();
  sample(requests, false);
  sample(requests, true);
  // Taken while the session is still reachable: what it holds is what a host would hold.
  if (env.BOWLINE_MEM_SNAPSHOT) writeHeapSnapshot(env.BOWLINE_MEM_SNAPSHOT);
  return outcome.status === "completed" ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`session-memory: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(70);
  },
);

/**
 * The TUI with a long conversation on screen and no model, for bench/tui.ts, run in a
 * pseudo-terminal. $BOWLINE_TUI_MESSAGES messages (default 500) are shown first. Then:
 * - BOWLINE_TUI_MODE=idle: SIGUSR1 starts a CPU measurement, SIGUSR2 ends it and writes
 *   `{ cpuMs, wallMs }` to $BOWLINE_TUI_REPORT; Ctrl-C twice exits.
 * - BOWLINE_TUI_MODE=stream: streams a reply in $BOWLINE_TUI_CHUNKS chunks (default 150), one
 *   every 20 ms (past the 60 fps frame limit, so each is drawn at once), times each from the
 *   event to the end of its drawing (the next macrotask), writes `{ chunkMs: [...], drawn, cpuMs }`
 *   (`drawn`: chunks that were written to the terminal in that time; `cpuMs`: CPU time of the
 *   whole stream, timers included) and exits.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { applyV8Flags } from "../src/hosts/cli/v8-flags.js";
import { runTui } from "../src/hosts/tui/index.js";
import type { Event } from "../src/protocol/index.js";
import { conversationEvents, stateEvent, streamEvents } from "./tui-conversation.js";

// The V8 settings of the CLI, set the way it sets them.
applyV8Flags();
const env = process.env;
const report = (data: unknown) => writeFileSync(env.BOWLINE_TUI_REPORT!, JSON.stringify(data));
let listener: ((event: Event) => void) | undefined;

function measureIdleOnSignals(): void {
  let started: { cpu: NodeJS.CpuUsage; at: number } | undefined;
  process.on("SIGUSR1", () => {
    started = { cpu: process.cpuUsage(), at: performance.now() };
  });
  process.on("SIGUSR2", () => {
    if (!started) return;
    const cpu = process.cpuUsage(started.cpu);
    report({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - started.at });
  });
}

async function streamTimed(chunks: number): Promise<void> {
  await sleep(500);
  listener?.(stateEvent("running"));
  const chunkMs: number[] = [];
  let drawn = 0;
  let writes = 0;
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((...args: Parameters<typeof write>) => {
    writes++;
    return write(...args);
  }) as typeof process.stdout.write;
  const cpu = process.cpuUsage();
  for (const event of streamEvents(chunks)) {
    await sleep(20);
    const started = performance.now();
    const before = writes;
    listener?.(event);
    // React commits in a microtask and Ink draws in the commit: both are done by the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    chunkMs.push(performance.now() - started);
    if (writes > before) drawn++;
  }
  const used = process.cpuUsage(cpu);
  report({ chunkMs, drawn, cpuMs: (used.user + used.system) / 1000 });
  process.exit(0);
}

const done = runTui({
  session: { dispatch: () => {}, run: () => new Promise(() => {}) },
  subscribe(next) {
    listener = next;
    return () => {
      listener = undefined;
    };
  },
  cwd: mkdtempSync(join(tmpdir(), "bowline-tui-bench-")),
  contextWindow: 200_000,
});
for (const event of [...conversationEvents(Number(env.BOWLINE_TUI_MESSAGES ?? 500)), stateEvent("completed")])
  listener?.(event);
if (env.BOWLINE_TUI_MODE === "stream") void streamTimed(Number(env.BOWLINE_TUI_CHUNKS ?? 150));
else measureIdleOnSignals();
done.then(() => process.exit(0));

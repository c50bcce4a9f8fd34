/**
 * The TUI's running costs, in a real pseudo-terminal (80 × 24): CPU while idle with a
 * 500-message conversation on screen, keystroke-to-echo latency, render cost per streamed
 * chunk with 10 and with 500 messages (their ratio shows whether it grows with the
 * conversation), and memory after a long scripted session against the fake model server.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { bundleEntry, runInPty } from "../test/hosts/tui/pty.js";
import { makeWorkspace } from "../test/support/cli.js";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { longSessionScript, median, percentile, round } from "./support.js";

export interface TuiBenchOptions {
  /** Seconds of idle CPU measurement (default 10). */
  idleSeconds?: number;
  keystrokes?: number;
  /** Turns of the long session (default 1000). */
  turns?: number;
}

const targets = { idleCpuPercent: 0.5, keystrokeEchoMs: 16, chunkCostRatio: 1.5, longSessionRssMb: 200 };

export async function benchTui(options: TuiBenchOptions = {}) {
  const child = await bundleEntry(join(import.meta.dirname, "tui-child.ts"));
  const idle = await idleAndKeystrokes(child, options.idleSeconds ?? 10, options.keystrokes ?? 40);
  const chunk10 = await chunkCost(child, 10);
  const chunk500 = await chunkCost(child, 500);
  const longSession = await longSessionMemory(options.turns ?? 1000);
  const chunkCostRatio = round(chunk500.medianMs / chunk10.medianMs);
  return {
    idle,
    chunkRender: { at10: chunk10, at500: chunk500, ratio500over10: chunkCostRatio },
    longSession,
    targets,
    met: {
      idleCpu: idle.cpuPercent <= targets.idleCpuPercent,
      keystrokeEcho: idle.keystrokeEchoMs.p95 <= targets.keystrokeEchoMs,
      chunkCostFlat: chunkCostRatio <= targets.chunkCostRatio,
      longSessionRss: longSession.rssMb <= targets.longSessionRssMb,
    },
  };
}

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), "bowline-tui-bench-")), name);

async function readReport(file: string, timeoutMs = 5000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`no report in ${file}`);
    await sleep(20);
  }
  await sleep(20);
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Idle CPU over `seconds` with 500 messages on screen, then `count` keystrokes timed to their echo. */
async function idleAndKeystrokes(child: string, seconds: number, count: number) {
  const report = tempFile("idle.json");
  const run = runInPty(child, {
    cwd: tmpdir(),
    env: { BOWLINE_TUI_MODE: "idle", BOWLINE_TUI_REPORT: report },
  });
  await run.waitFor("done · type to go on", 30_000);
  await sleep(1000);
  const writtenBefore = run.output().length;
  process.kill(run.pid, "SIGUSR1");
  await sleep(seconds * 1000);
  process.kill(run.pid, "SIGUSR2");
  const { cpuMs, wallMs } = await readReport(report);
  const bytesWrittenWhileIdle = run.output().length - writtenBefore;
  const echo: number[] = [];
  for (let i = 0; i < count; i++) {
    const char = String.fromCharCode(97 + (i % 26));
    echo.push(await timeEcho(run, char));
    await sleep(40);
  }
  await leave(run);
  return {
    messages: 500,
    seconds,
    cpuMs: round(cpuMs),
    cpuPercent: round((cpuMs / wallMs) * 100, 3),
    bytesWrittenWhileIdle,
    keystrokeEchoMs: {
      median: round(median(echo)),
      p95: round(percentile(echo, 95)),
      max: round(Math.max(...echo)),
    },
  };
}

/** Ctrl-C twice (apart: one read holding both would be one unknown key). */
async function leave(run: ReturnType<typeof runInPty>): Promise<void> {
  run.press("\x03");
  await sleep(100);
  run.press("\x03");
  await run.exited;
}

function timeEcho(run: ReturnType<typeof runInPty>, char: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const timer = setTimeout(() => reject(new Error(`no echo of ${char}`)), 5000);
    const stop = run.onData((data) => {
      if (!data.includes(char)) return;
      clearTimeout(timer);
      stop();
      resolve(performance.now() - started);
    });
    run.press(char);
  });
}

/** Milliseconds to handle and draw one streamed chunk with `messages` messages before it. */
async function chunkCost(child: string, messages: number) {
  const report = tempFile("stream.json");
  const run = runInPty(child, {
    cwd: tmpdir(),
    env: { BOWLINE_TUI_MODE: "stream", BOWLINE_TUI_MESSAGES: String(messages), BOWLINE_TUI_REPORT: report },
  });
  await run.exited;
  const { chunkMs, drawn, cpuMs } = (await readReport(report)) as {
    chunkMs: number[];
    drawn: number;
    cpuMs: number;
  };
  const steady = chunkMs.slice(10); // the first chunks warm up the JIT
  return {
    messages,
    chunks: chunkMs.length,
    drawn,
    medianMs: round(median(steady), 3),
    p95Ms: round(percentile(steady, 95), 3),
    cpuMsPerChunk: round(cpuMs / chunkMs.length, 3),
  };
}

/**
 * Memory after `turns` scripted turns with a real task session, each a little text and a
 * listing (of two folders in turn: the same call five times in a row is stopped as a loop):
 * with the TUI, and without (the same task, nobody watching) to tell the TUI's share. The entry
 * sets the V8 flags the CLI sets (src/hosts/cli/v8-flags.ts); Node runs with --expose-gc so the
 * report can give the heap still in use after a collection.
 */
async function longSessionMemory(turns: number) {
  const entry = await bundleEntry(join(import.meta.dirname, "..", "test", "hosts", "tui", "pty-entry.ts"));
  const withTui = await scriptedSession(entry, turns, false);
  const headless = await scriptedSession(entry, turns, true);
  return {
    ...withTui,
    headless,
    tuiExtraRssMb: round(withTui.rssMb - headless.rssMb, 1),
    tuiExtraHeapMb: round(withTui.heapUsedMb - headless.heapUsedMb, 1),
  };
}

async function scriptedSession(entry: string, turns: number, headless: boolean) {
  const server = await startFakeModelServer({ script: longSessionScript(turns) });
  const { repo, home } = makeWorkspace();
  const report = tempFile("session.json");
  const started = performance.now();
  try {
    const run = runInPty(entry, {
      cwd: repo,
      nodeArgs: ["--expose-gc"],
      env: {
        ANTHROPIC_API_KEY: "sk-ant-bench",
        BOWLINE_HOME: home,
        BOWLINE_TUI_BASE_URL: server.url,
        BOWLINE_TUI_PROMPT: "Look at the files, again and again.",
        BOWLINE_TUI_YOLO: "1",
        BOWLINE_TUI_REPORT: report,
        BOWLINE_TUI_HEADLESS: headless ? "1" : undefined,
      },
    });
    if (headless) await run.exited;
    else await run.waitFor(`Finished after ${turns} turns.`, 30 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    if (!headless) await leave(run);
    const { rssBytes, peakRssBytes, heapUsedBytes } = await readReport(report);
    return {
      turns,
      seconds: round(seconds, 1),
      rssMb: round(rssBytes / 2 ** 20, 1),
      peakRssMb: round(peakRssBytes / 2 ** 20, 1),
      heapUsedMb: round(heapUsedBytes / 2 ** 20, 1),
      requests: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchTui(), null, 2));
}

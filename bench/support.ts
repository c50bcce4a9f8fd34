import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ScriptedTurn } from "../test/support/fake-model-server.js";

export const ROOT = resolve(import.meta.dirname, "..");
export const CLI = join(ROOT, "dist", "cli.js");
export const now = () => performance.timeOrigin + performance.now();

export function median(values: number[]): number {
  return percentile(values, 50);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export interface ProcessRun {
  code: number | null;
  startedAt: number;
  endedAt: number;
  stdout: string;
  stderr: string;
  /** Peak resident set size in bytes (VmHWM, sampled from /proc until exit). */
  peakRssBytes: number;
  /** [ms since start, VmRSS MB] samples, for diagnosis. */
  rssTrace: Array<[number, number]>;
}

function readPeakRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return undefined; // the process has exited between samples
  }
}

/** Runs a command, sampling its peak memory until it exits. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; sampleMs?: number } = {},
): Promise<ProcessRun> {
  return new Promise((resolvePromise, reject) => {
    const startedAt = now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let peak = 0;
    const rssTrace: Array<[number, number]> = [];
    const sample = () => {
      if (child.pid === undefined) return;
      peak = Math.max(peak, readPeakRss(child.pid) ?? 0);
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        rssTrace.push([
          Math.round(now() - startedAt),
          Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) >> 10,
        ]);
      } catch {
        // exited
      }
    };
    const timer = options.sampleMs ? setInterval(sample, options.sampleMs) : undefined;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    // Sample once more at exit (the zombie's /proc entry is still readable before reaping).
    child.on("exit", () => sample());
    child.on("close", (code) => {
      if (timer) clearInterval(timer);
      resolvePromise({
        code,
        startedAt,
        endedAt: now(),
        stdout,
        stderr,
        peakRssBytes: peak,
        rssTrace,
      });
    });
  });
}

/**
 * The long sessions of the memory benchmarks: `turns` requests, each a short text and a
 * `list_files` call, then the completion.
 */
export function longSessionScript(turns: number) {
  return (_request: unknown, index: number): ScriptedTurn =>
    index < turns - 1
      ? {
          text: `Step ${index}: looking at the **files** again.`,
          toolCalls: [{ name: "list_files", input: { path: index % 2 ? "src" : "." } }],
        }
      : { toolCalls: [{ name: "attempt_completion", input: { result: `Finished after ${turns} turns.` } }] };
}

import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "..", "..");
export const CLI = join(REPO_ROOT, "dist", "cli.js");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  input?: string;
  /** Called with the child once spawned (e.g. to send SIGINT). */
  onSpawn?: (child: import("node:child_process").ChildProcess) => void;
  timeoutMs?: number;
}

/** Runs the built `bowline` binary with a clean environment (no real keys leak in). */
export function runCli(args: string[], options: RunCliOptions): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "LANG", "TMPDIR", "SHELL"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `bowline did not exit within ${options.timeoutMs ?? 20_000} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
    child.stdin.end(options.input ?? "");
  });
}

/** A fresh copy of an example repository and an empty Bowline home, in a temp folder. */
export function makeWorkspace(example = "buggy-calculator"): { repo: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), "bowline-test-"));
  const repo = join(root, example);
  cpSync(join(REPO_ROOT, "examples", example), repo, { recursive: true });
  return { repo, home: join(root, "home") };
}

/** Reads every JSONL record of a task's journal file. */
export function readJournal(
  home: string,
  file: "api_history.jsonl" | "ui_messages.jsonl",
): { taskDir: string; records: any[] } {
  const tasks = readdirSync(join(home, "tasks"));
  if (tasks.length !== 1) throw new Error(`expected one task folder, found ${tasks.length}`);
  const taskDir = join(home, "tasks", tasks[0]!);
  const text = readFileSync(join(taskDir, file), "utf8");
  return {
    taskDir,
    records: text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
  };
}

export function parseJsonLines(text: string): any[] {
  return text
    .split("\n")
    .filter((line) => line.trim().startsWith("{"))
    .map((line) => JSON.parse(line));
}

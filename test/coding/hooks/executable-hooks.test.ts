import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExecutableHookRunner, defaultHookDirs } from "../../../src/coding/hooks/executable-hooks.js";
import { isRunning } from "../../support/process.js";

const NODE = process.execPath;

let root: string;
let userDir: string;
let projectDir: string;
let workspace: string;
/** Processes a test started that must not outlive it. */
const started: number[] = [];

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "bowline-hooks-")));
  userDir = path.join(root, "home", "hooks");
  workspace = path.join(root, "ws");
  projectDir = path.join(workspace, ".bowline", "hooks");
  await fs.mkdir(userDir, { recursive: true });
  await fs.mkdir(projectDir, { recursive: true });
});

afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone, as the test expects.
    }
  }
  await fs.rm(root, { recursive: true, force: true });
});

async function hook(dir: string, name: string, body: string, mode = 0o755): Promise<string> {
  const file = path.join(dir, name);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, body, { mode });
  return file;
}

const bash = (script: string) => `#!/bin/bash\n${script}\n`;
const node = (script: string) => `#!${NODE}\n${script}\n`;
/** A node hook that reads its stdin document into `doc`, then runs `script`. */
const nodeWithInput = (script: string) =>
  node(
    `let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => { const doc = JSON.parse(text); ${script} });`,
  );

function runner(options: { timeoutMs?: number; killGraceMs?: number } = {}) {
  return createExecutableHookRunner({ dirs: [userDir, projectDir], workspace, ...options });
}

const preToolUse = (input: unknown = { path: "a.ts" }) => ({ taskId: "task-1", tool: "read_file", input });

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

async function readPids(file: string): Promise<number[]> {
  for (let i = 0; i < 100; i++) {
    const text = await fs.readFile(file, "utf8").catch(() => "");
    const pids = text.split(/\s+/).filter(Boolean).map(Number);
    if (pids.length >= 2) return pids;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no pids in ${file}`);
}

describe("the executable hook runner", () => {
  it("has no opinion when there are no hooks or no hook directories", async () => {
    const missing = createExecutableHookRunner({ dirs: [path.join(root, "nope")], workspace });
    expect(await missing.run("PreToolUse", preToolUse())).toEqual({ problems: [] });
    expect(await runner().run("TaskStart", { taskId: "t", prompt: "p" })).toEqual({ problems: [] });
  });

  it("gives each hook the event document on stdin and runs it in the workspace", async () => {
    await fs.mkdir(workspace, { recursive: true });
    const seen = path.join(root, "seen.json");
    await hook(
      userDir,
      "PostToolUse",
      nodeWithInput(
        `require("fs").writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ doc, cwd: process.cwd(), env: process.env.BOWLINE_HOOK_EVENT }));`,
      ),
    );
    const payload = {
      taskId: "task-9",
      tool: "execute_command",
      input: { command: "ls" },
      result: { content: "a.ts", isError: false },
      durationMs: 12,
    };
    expect(await runner().run("PostToolUse", payload)).toEqual({ problems: [] });
    expect(JSON.parse(await fs.readFile(seen, "utf8"))).toEqual({
      doc: { event: "PostToolUse", workspace, ...payload },
      cwd: workspace,
      env: "PostToolUse",
    });
  });

  it("blocks with the reason a hook prints", async () => {
    const file = await hook(
      projectDir,
      "PreToolUse",
      bash(`echo '{"block": true, "reason": "no reading secrets"}'`),
    );
    const outcome = await runner().run("PreToolUse", preToolUse());
    expect(outcome).toEqual({ block: { reason: "no reading secrets", source: file }, problems: [] });
  });

  it("blocks on exit code 2 with stderr as the reason", async () => {
    await hook(userDir, "PreToolUse", bash(`echo 'rm is not allowed here' >&2; exit 2`));
    const outcome = await runner().run("PreToolUse", preToolUse());
    expect(outcome.block?.reason).toBe("rm is not allowed here");
    expect(outcome.problems).toEqual([]);
  });

  it("stops at the first block: later hooks do not run", async () => {
    const marker = path.join(root, "second-ran");
    await hook(userDir, "PreToolUse", bash("exit 2"));
    await hook(projectDir, "PreToolUse", bash(`touch ${marker}`));
    const outcome = await runner().run("PreToolUse", preToolUse());
    expect(outcome.block?.reason).toMatch(/exit code 2/);
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it("chains input rewrites: each hook sees the previous one's input", async () => {
    await hook(
      userDir,
      "PreToolUse",
      nodeWithInput(`console.log(JSON.stringify({ input: { ...doc.input, first: true } }));`),
    );
    await hook(
      projectDir,
      "PreToolUse",
      nodeWithInput(
        `console.log(JSON.stringify({ input: { ...doc.input, second: doc.input.first === true } }));`,
      ),
    );
    const outcome = await runner().run("PreToolUse", preToolUse({ path: "a.ts" }));
    expect(outcome).toEqual({ input: { path: "a.ts", first: true, second: true }, problems: [] });
  });

  it("adds context from every hook", async () => {
    await hook(userDir, "UserPromptSubmit", bash(`echo '{"context": "The build uses pnpm."}'`));
    await hook(projectDir, "UserPromptSubmit", bash(`echo '{"context": "Tests live in test/."}'`));
    await hook(projectDir, "UserPromptSubmit.quiet", bash("exit 0"));
    const outcome = await runner().run("UserPromptSubmit", { taskId: "t", prompt: "fix it" });
    expect(outcome).toEqual({ context: "The build uses pnpm.\n\nTests live in test/.", problems: [] });
  });

  it("runs hooks in a defined order: directories in order, names sorted, folders expanded", async () => {
    const log = path.join(root, "order.log");
    const append = (label: string) => bash(`echo ${label} >> ${log}`);
    await hook(userDir, "PreToolUse.sh", append("user-file.sh"));
    await hook(userDir, "PreToolUse/20-second", append("user-folder-20"));
    await hook(userDir, "PreToolUse/10-first", append("user-folder-10"));
    await hook(userDir, "PreToolUse/.hidden", append("hidden"));
    await hook(projectDir, "PreToolUse", append("project"));
    await hook(projectDir, "PreToolUse.off.disabled", append("disabled"));
    await hook(projectDir, "PostToolUse", append("other-event"));
    await hook(projectDir, "PreToolUseX", append("no-dot"));
    expect(await runner().run("PreToolUse", preToolUse())).toEqual({ problems: [] });
    expect((await fs.readFile(log, "utf8")).trim().split("\n")).toEqual([
      "user-folder-10",
      "user-folder-20",
      "user-file.sh",
      "project",
    ]);
  });

  it("reports a hook that is not executable, and runs the rest", async () => {
    const file = await hook(userDir, "PreToolUse", bash(`echo '{"block": true}'`), 0o644);
    await hook(projectDir, "PreToolUse", bash(`echo '{"context": "ran"}'`));
    const outcome = await runner().run("PreToolUse", preToolUse());
    expect(outcome.block).toBeUndefined();
    expect(outcome.context).toBe("ran");
    expect(outcome.problems).toEqual([
      `hooks: ${file}: not executable, so it was not run (chmod +x it, or rename it to end in .disabled)`,
    ]);
  });

  it("reports a crashing hook with its stderr, and goes on", async () => {
    const file = await hook(userDir, "PreToolUse", bash(`echo 'TypeError: boom' >&2; exit 1`));
    await hook(projectDir, "PreToolUse", bash(`echo '{"context": "after"}'`));
    const outcome = await runner().run("PreToolUse", preToolUse());
    expect(outcome).toEqual({ context: "after", problems: [`${file}: exited with code 1: TypeError: boom`] });
  });

  it("reports garbage on stdout and ignores it", async () => {
    const garbage = await hook(userDir, "PostToolUse", bash("echo 'all good!'"));
    const array = await hook(userDir, "PostToolUse.array", bash("echo '[1, 2]'"));
    const typo = await hook(
      projectDir,
      "PostToolUse",
      bash(`echo '{"contextModification": "x", "block": "yes"}'`),
    );
    const outcome = await runner().run("PostToolUse", {
      taskId: "t",
      tool: "read_file",
      input: {},
      result: { content: "", isError: false },
      durationMs: 1,
    });
    expect(outcome.block).toBeUndefined();
    expect(outcome.problems).toEqual([
      `${garbage}: printed output that is not JSON, ignored: all good!`,
      `${array}: printed JSON that is not an object, ignored: [1, 2]`,
      `${typo}: ignored unknown field(s) contextModification (known: block, reason, input, context)`,
      `${typo}: "block" must be true or false; the output was ignored`,
    ]);
  });

  it("reports a hook that prints too much", async () => {
    await hook(userDir, "TaskStart", bash("head -c 1500000 /dev/zero | tr '\\0' a"));
    const outcome = await runner().run("TaskStart", { taskId: "t", prompt: "p" });
    expect(outcome.problems).toEqual([
      `${path.join(userDir, "TaskStart")}: printed too much output; it was ignored`,
    ]);
  });

  it("does not mind a hook that never reads its large input", async () => {
    await hook(userDir, "PreToolUse", bash(`echo '{"context": "fine"}'`));
    const outcome = await runner().run("PreToolUse", preToolUse({ content: "x".repeat(2_000_000) }));
    expect(outcome).toEqual({ context: "fine", problems: [] });
  });

  it("kills a hook that hangs at the timeout, with its whole process group", async () => {
    const pids = path.join(root, "pids");
    const file = await hook(
      userDir,
      "PreToolUse",
      bash(`sleep 1000 & echo $! >> ${pids}; echo $$ >> ${pids}; wait`),
    );
    const marker = path.join(root, "next-ran");
    await hook(projectDir, "PreToolUse", bash(`touch ${marker}; echo '{"context": "next"}'`));
    const outcome = await runner({ timeoutMs: 500 }).run("PreToolUse", preToolUse());
    const [child, shell] = await readPids(pids);
    started.push(child!, shell!);
    expect(outcome).toEqual({
      context: "next",
      problems: [`${file}: timed out after 500 ms and was killed`],
    });
    expect(await waitUntilGone(shell!)).toBe(true);
    expect(await waitUntilGone(child!)).toBe(true);
  });

  it("kills a hook that ignores SIGTERM after the grace period", async () => {
    const pids = path.join(root, "pids");
    await hook(
      userDir,
      "PreToolUse",
      bash(`trap '' TERM; sleep 1000 & echo $! >> ${pids}; echo $$ >> ${pids}; wait; wait`),
    );
    const outcome = await runner({ timeoutMs: 300, killGraceMs: 200 }).run("PreToolUse", preToolUse());
    const [child, shell] = await readPids(pids);
    started.push(child!, shell!);
    expect(outcome.problems[0]).toMatch(/timed out after 300 ms and was killed/);
    expect(await waitUntilGone(shell!)).toBe(true);
    expect(await waitUntilGone(child!)).toBe(true);
  });

  it("kills the running hook and skips the rest when the task is aborted", async () => {
    const pids = path.join(root, "pids");
    const first = await hook(
      userDir,
      "PreToolUse",
      bash(`sleep 1000 & echo $! >> ${pids}; echo $$ >> ${pids}; wait`),
    );
    const second = await hook(projectDir, "PreToolUse", bash(`echo '{"block": true}'`));
    const controller = new AbortController();
    const running = runner().run("PreToolUse", preToolUse(), { signal: controller.signal });
    const [child, shell] = await readPids(pids);
    started.push(child!, shell!);
    controller.abort();
    const outcome = await running;
    expect(outcome).toEqual({
      problems: [`${first}: stopped: the task was aborted`, `${second}: not run: the task was aborted`],
    });
    expect(await waitUntilGone(child!)).toBe(true);
  });

  it("does not wait for a background process a finished hook left holding its output", async () => {
    const pids = path.join(root, "pids");
    await hook(userDir, "TaskComplete", bash(`sleep 1000 & echo $! >> ${pids}; echo $$ >> ${pids}; exit 0`));
    const before = Date.now();
    const outcome = await runner({ timeoutMs: 5000 }).run("TaskComplete", { taskId: "t", result: "done" });
    const [child] = await readPids(pids);
    started.push(child!);
    expect(outcome).toEqual({ problems: [] });
    expect(Date.now() - before).toBeLessThan(4000);
  });

  it("reports what an event does not honour", async () => {
    const file = await hook(userDir, "TaskComplete", bash(`echo '{"block": true, "reason": "not done"}'`));
    const outcome = await runner().run("TaskComplete", { taskId: "t", result: "r" });
    expect(outcome).toEqual({ problems: [`${file}: blocking is not possible for TaskComplete; ignored`] });
  });

  it("reports a hook that cannot be started", async () => {
    const file = await hook(userDir, "PreCompact", "#!/nonexistent/interpreter\n");
    const outcome = await runner().run("PreCompact", { taskId: "t", strategy: "auto", messageCount: 3 });
    expect(outcome.problems).toHaveLength(1);
    expect(outcome.problems[0]).toMatch(new RegExp(`^${file}: could not be started`));
  });

  it("knows the default hook directories", () => {
    expect(defaultHookDirs("/home/u/.bowline", "/ws")).toEqual([
      "/home/u/.bowline/hooks",
      "/ws/.bowline/hooks",
    ]);
  });
});

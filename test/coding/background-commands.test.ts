import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BackgroundRegistry } from "../../src/coding/process/background-registry.js";
import { groupExists } from "../../src/coding/process/shell-process.js";
import { createCommandOutputTool } from "../../src/coding/tools/command-output.js";
import { createExecuteCommandTool } from "../../src/coding/tools/execute-command.js";
import { COMMAND_MODES, processesWith, uniqueToken, waitUntil } from "./safety/command-modes.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext, type TestToolContext } from "./tool-context.js";

describe.each(COMMAND_MODES)("background commands and command_output ($name)", (mode) => {
  let temp: TempWorkspace;
  let test: TestToolContext;
  let registry: BackgroundRegistry;
  const exec = (input: { command: string; timeout?: number; background?: boolean }) =>
    createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: mode.sandbox(temp.root),
      registry,
      killGraceMs: 500,
      backgroundStartMs: 500,
    }).execute(input, test.ctx);
  const output = (input: { id?: string; action?: "read" | "stop" }) =>
    createCommandOutputTool({ registry }).execute(input, test.ctx);

  beforeEach(async () => {
    temp = await createTempWorkspace();
    test = createTestToolContext();
    registry = new BackgroundRegistry();
  });
  afterEach(async () => {
    await registry.disposeAll();
    await temp.remove();
  });

  it("starts, reads only new output, reports exit codes, and lists", async () => {
    // A timeout shorter than the start window does not stop a background command.
    const started = await exec({
      command: "echo first; sleep 0.8; echo second; sleep 0.3; exit 4",
      background: true,
      timeout: 0.1,
    });
    expect(started.isError).toBeFalsy();
    expect(started.details?.backgroundId).toBe("bg-1");
    // In the sandbox without network, only later sandboxed commands can reach it (or nothing,
    // without a shared localhost), and the model is told so.
    const sandbox = mode.sandbox(temp.root);
    const isolated = !sandbox
      ? ""
      : sandbox.sharedLoopback
        ? "\n[Sandbox] It runs in the sandbox without network: later commands can reach its ports on localhost, the user cannot. If the user must, stop it and start it again with unsandboxed: true; the user will be asked to approve it."
        : "\n[Sandbox] It runs in the sandbox without network: its ports cannot be reached from other commands, nor by the user. If they must be, stop it and start it again with unsandboxed: true; the user will be asked to approve it.";
    expect(textOf(started.content)).toBe(
      `Command started in the background as bg-1. It keeps running; use command_output with id "bg-1" to read its new output or to stop it. Output so far:\nfirst\n${isolated}`,
    );
    const pid = registry.get("bg-1")?.pid ?? 0;
    expect(groupExists(pid)).toBe(true);

    await waitUntil(() => registry.get("bg-1")?.running === false);
    const read = await output({ id: "bg-1" });
    expect(textOf(read.content)).toBe(
      "bg-1 (echo first; sleep 0.8; echo second; sleep 0.3; exit 4), exited with code 4. Output since the last read:\nsecond\n",
    );
    expect(read.details?.entry).toMatchObject({ running: false, exit: { code: 4, signal: null } });
    expect(textOf((await output({ id: "bg-1" })).content)).toMatch(
      /exited with code 4\. Output since the last read:\n\(no new output\)$/,
    );

    const list = await output({});
    expect(textOf(list.content)).toMatch(
      /^Background commands:\n- bg-1 \(echo first;.*\), exited with code 4$/,
    );
    const unknown = await output({ id: "bg-9" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown.content)).toMatch(/^There is no background command "bg-9"\.\n- bg-1/);
  });

  it("stops the whole process group, children included", async () => {
    const token = uniqueToken();
    await exec({ command: `(exec -a ${token} sleep 100) & echo started; sleep 100`, background: true });
    const pid = registry.get("bg-1")?.pid ?? 0;
    expect(processesWith(token).length).toBeGreaterThan(0);
    const running = await output({ id: "bg-1" });
    expect(textOf(running.content)).toMatch(
      /^bg-1 \(.*\), running for \d+s\. Output since the last read:\n\(no new output\)$/,
    );
    const stopped = await output({ id: "bg-1", action: "stop" });
    expect(textOf(stopped.content)).toMatch(/^Stopped bg-1 \(.*\), terminated by signal SIGTERM\./);
    expect(await waitUntil(() => !groupExists(pid))).toBe(true);
    expect(processesWith(token)).toEqual([]);
  });

  it("says when a background command waits for input", async () => {
    await exec({ command: "echo 'Name?'; mkfifo f; exec 3<>f; read -u 3 x", background: true });
    const read = await output({ id: "bg-1" });
    expect(textOf(read.content)).toMatch(
      /^bg-1 \(.*\), running for \d+s\. It appears to be waiting for input/,
    );
  });

  it("disposeAll kills every group still running", async () => {
    await exec({ command: "trap '' TERM; sleep 100", background: true });
    await exec({ command: "sleep 100 & sleep 100", background: true });
    const pids = registry.list().map((entry) => entry.pid);
    expect(pids.every(groupExists)).toBe(true);
    await registry.disposeAll();
    expect(await waitUntil(() => pids.every((pid) => !groupExists(pid)))).toBe(true);
    expect(registry.list()).toEqual([]);
  });

  it("a background command that exits during the start window is a normal result", async () => {
    const result = await exec({ command: "echo quick", background: true });
    expect(result.details?.backgroundId).toBeUndefined();
    expect(textOf(result.content)).toBe("Command exited with code 0. Output:\nquick\n");
    expect(registry.list()).toEqual([]);
  });

  it("leaves a command that looks like a server running at its timeout", async () => {
    const result = await exec({
      command: "echo 'Server listening on http://localhost:5173'; sleep 100",
      timeout: 0.5,
    });
    expect(result.isError).toBeFalsy();
    expect(result.details?.backgroundId).toBe("bg-1");
    expect(textOf(result.content)).toMatch(
      /^Command started in the background as bg-1\. It was still running at its 0\.5s timeout/,
    );
    expect(registry.get("bg-1")?.running).toBe(true);
  });

  it("refuses background commands without a registry, and past the running limit", async () => {
    const bare = createExecuteCommandTool({ workspace: temp.workspace });
    const refused = await bare.execute({ command: "sleep 1", background: true }, test.ctx);
    expect(refused.isError).toBe(true);
    expect(textOf(refused.content)).toBe(
      "The command was not run: background commands are not available here.",
    );
    registry = new BackgroundRegistry({ maxRunning: 1 });
    await exec({ command: "sleep 100", background: true });
    const second = await exec({ command: "sleep 100", background: true });
    expect(textOf(second.content)).toMatch(/1 background commands are already running \(the limit is 1\)/);
  });
});

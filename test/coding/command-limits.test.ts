import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeGroupActivity } from "../../src/coding/process/input-wait.js";
import { HeadTailBuffer } from "../../src/coding/process/output-buffer.js";
import { listGroup } from "../../src/coding/process/process-group.js";
import { groupExists, startShellProcess } from "../../src/coding/process/shell-process.js";
import { sandboxLauncher } from "../../src/coding/safety/sandbox.js";
import { createExecuteCommandTool, INPUT_WAIT_MESSAGE } from "../../src/coding/tools/execute-command.js";
import { COMMAND_MODES, waitUntil } from "./safety/command-modes.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext, type TestToolContext } from "./tool-context.js";

const linux = process.platform === "linux";

describe.each(COMMAND_MODES)("execute_command limits ($name)", (mode) => {
  let temp: TempWorkspace;
  let test: TestToolContext;
  const tool = (
    options: { inputWaitMs?: number; maxOutputChars?: number; defaultTimeoutSeconds?: number } = {},
  ) =>
    createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: mode.sandbox(temp.root),
      killGraceMs: 500,
      inputWaitMs: 1000,
      ...options,
    });
  /** How `startShellProcess` runs commands in this mode. */
  const launcher = () => {
    const sandbox = mode.sandbox(temp.root);
    return sandbox ? { launcher: sandboxLauncher(sandbox) } : {};
  };

  beforeEach(async () => {
    temp = await createTempWorkspace();
    test = createTestToolContext();
  });
  afterEach(() => temp.remove());

  it("defaults to 30s and caps what the model asks for at 600s", async () => {
    const t = tool();
    expect(t.description).toContain("Stopped after 30 s unless you give a timeout (at most 600)");
    const plain = await t.execute({ command: "true" }, test.ctx);
    expect(plain.details?.timeoutSeconds).toBe(30);
    const capped = await t.execute({ command: "true", timeout: 5000 }, test.ctx);
    expect(capped.details?.timeoutSeconds).toBe(600);
    expect(textOf(capped.content)).toContain("(the 5000s asked for is capped at 600s)");
    const custom = tool({ defaultTimeoutSeconds: 1 });
    const timedOut = await custom.execute({ command: "sleep 10" }, test.ctx);
    expect(timedOut.details).toMatchObject({ timedOut: true, timeoutSeconds: 1 });
  });

  it.runIf(linux)("stops a command blocked reading a FIFO nobody writes to (blocked in open)", async () => {
    const started = Date.now();
    const result = await tool().execute(
      { command: "mkfifo in.fifo; echo 'Name?'; read name < in.fifo" },
      test.ctx,
    );
    expect(Date.now() - started).toBeLessThan(6000);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ waitingForInput: true, timedOut: false });
    expect(textOf(result.content)).toBe(`${INPUT_WAIT_MESSAGE} Output so far:\nName?\n`);
  });

  it.runIf(linux)("stops a command blocked in read on a FIFO it holds open, through a pipeline", async () => {
    const result = await tool().execute(
      { command: "mkfifo f; exec 3<>f; echo asking; read -u 3 x | cat" },
      test.ctx,
    );
    expect(result.details?.waitingForInput).toBe(true);
  });

  it.runIf(linux)("reports /dev/tty failures normally: there is no controlling terminal", async () => {
    const result = await tool().execute(
      { command: `read -p "Name? " x < /dev/tty; echo "status $?"` },
      test.ctx,
    );
    expect(result.details?.waitingForInput).toBe(false);
    expect(result.details?.exitCode).toBe(0);
    // stderr and stdout arrive on separate pipes, so their order is not fixed.
    expect(textOf(result.content)).toContain("/dev/tty: No such device or address");
    expect(textOf(result.content)).toContain("status 1\n");
  });

  it.runIf(linux)("leaves quiet commands that are not reading input alone", async () => {
    const result = await tool({ inputWaitMs: 300 }).execute(
      { command: "sleep 1.5 | cat; (sleep 1; echo done) | cat" },
      test.ctx,
    );
    expect(result.details).toMatchObject({ waitingForInput: false, exitCode: 0 });
    expect(textOf(result.content)).toContain("done");
  });

  it.runIf(linux)("probes a process group's activity from /proc", async () => {
    const options = {
      cwd: temp.root,
      shell: "bash",
      env: process.env,
      maxOutputChars: 100,
      killGraceMs: 200,
      ...launcher(),
    };
    const sleeping = await startShellProcess({ ...options, command: "sleep 100" });
    const reading = await startShellProcess({
      ...options,
      command: `mkfifo ${temp.root}/p; exec 3<>${temp.root}/p; read -u 3 x`,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(probeGroupActivity(sleeping.pid)).toBe("busy");
    expect(probeGroupActivity(reading.pid)).toBe("waiting-for-input");
    await Promise.all([sleeping.stop(), reading.stop()]);
    expect(probeGroupActivity(sleeping.pid)).toBe("unknown");
  });

  it.runIf(linux)(
    "stops only once nothing of the command is left, even what outlives its shell",
    async () => {
      // The subshell ignores SIGTERM and outlives the shell that started it: only the SIGKILL
      // after the grace time ends it, and stop() waits for that.
      const proc = await startShellProcess({
        command: "(trap '' TERM; exec sleep 30) & wait",
        cwd: temp.root,
        shell: "bash",
        env: process.env,
        maxOutputChars: 100,
        killGraceMs: 300,
        ...launcher(),
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(listGroup(proc.pid)?.length).toBeGreaterThan(0);
      await proc.stop();
      expect(listGroup(proc.pid)).toEqual([]);
    },
  );

  it("bounds runaway output in memory, kills it at the timeout, and says so", async () => {
    const t = tool({ maxOutputChars: 2000, defaultTimeoutSeconds: 1.5 });
    const result = await t.execute({ command: "yes" }, test.ctx);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ timedOut: true, truncated: true });
    const text = textOf(result.content);
    expect(text).toMatch(/^Command timed out after 1\.5s and was stopped/);
    const omitted = Number(/\[\.\.\. (\d+) characters omitted \.\.\.\]/.exec(text)?.[1]);
    expect(omitted).toBeGreaterThan(1_000_000);
    expect(text.length).toBeLessThan(2600);
    // What reached the host was throttled too, with a note for what was skipped.
    const streamed = test.progress.join("");
    expect(streamed.length).toBeLessThan(200_000);
    expect(streamed).toMatch(/\[\.\.\. \d+ characters not shown \.\.\.\]/);
  });

  it("a shell process keeps bounded memory however much it prints", async () => {
    const proc = await startShellProcess({
      command: "yes | head -c 20000000",
      cwd: temp.root,
      shell: "bash",
      env: process.env,
      maxOutputChars: 1000,
      killGraceMs: 200,
      ...launcher(),
    });
    let peak = 0;
    proc.onOutput(() => {
      peak = Math.max(peak, proc.retainedChars);
    });
    await proc.exited;
    // Soon rather than at once: the sandbox's init lingers as a zombie until the system reaps it.
    expect(await waitUntil(() => !groupExists(proc.pid))).toBe(true);
    // Two buffers (whole run, unread), each at most 1.5 times the limit.
    expect(peak).toBeLessThanOrEqual(3000);
    expect(proc.output().omitted).toBe(20_000_000 - 1000);
  });
});

describe("HeadTailBuffer retention", () => {
  it("never holds more than 1.5 times its limit", () => {
    const buffer = new HeadTailBuffer(100);
    let peak = 0;
    for (let i = 0; i < 10_000; i++) {
      buffer.append("x".repeat(37));
      peak = Math.max(peak, buffer.retainedChars);
    }
    expect(peak).toBeLessThanOrEqual(150);
    expect(buffer.totalChars).toBe(370_000);
  });
});

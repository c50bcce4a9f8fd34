import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createExecuteCommandTool,
  type ExecuteCommandOptions,
} from "../../src/coding/tools/execute-command.js";
import { COMMAND_MODES, processesWith, uniqueToken, waitUntil } from "./safety/command-modes.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext, type TestToolContext } from "./tool-context.js";

describe.each(COMMAND_MODES)("execute_command ($name)", (mode) => {
  let temp: TempWorkspace;
  let test: TestToolContext;
  const run = (input: { command: string; timeout?: number }, options: Partial<ExecuteCommandOptions> = {}) =>
    createExecuteCommandTool({
      workspace: temp.workspace,
      killGraceMs: 500,
      sandbox: mode.sandbox(temp.root),
      ...options,
    }).execute(input, test.ctx);

  /** Runs `command`, whose processes carry `token`, checking they ran before it ended. */
  async function runSeen(token: string, input: { command: string; timeout?: number }) {
    const result = run(input);
    expect(await waitUntil(() => processesWith(token).length > 0)).toBe(true);
    return result;
  }

  beforeEach(async () => {
    temp = await createTempWorkspace({ "hello.txt": "hi there\n" });
    test = createTestToolContext();
  });
  afterEach(() => temp.remove());

  it("runs in the workspace root, returns the output and exit code 0, and streams progress", async () => {
    const result = await run({ command: "pwd; cat hello.txt" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe(`Command exited with code 0. Output:\n${temp.root}\nhi there\n`);
    expect(test.progress.join("")).toBe(`${temp.root}\nhi there\n`);
    expect(result.details).toMatchObject({
      command: "pwd; cat hello.txt",
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      truncated: false,
    });
    expect(result.details?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("reports a non-zero exit as a normal result the model can read", async () => {
    const result = await run({ command: "echo failing; exit 3" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe("Command failed with exit code 3. Output:\nfailing\n");
    expect(result.details?.exitCode).toBe(3);
  });

  it("captures stderr interleaved with stdout", async () => {
    const result = await run({ command: "echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three" });
    expect(textOf(result.content)).toContain("one\ntwo\nthree\n");
  });

  it("says when there is no output, and uses bash", async () => {
    expect(textOf((await run({ command: "true" })).content)).toBe(
      "Command exited with code 0. Output:\n(no output)",
    );
    expect(textOf((await run({ command: 'echo "shell:$0"' })).content)).toMatch(/shell:\S*\/bash\n/);
  });

  it("disables pagers and interactive git", async () => {
    const result = await run({ command: 'echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT"' });
    expect(textOf(result.content)).toContain("cat cat 0");
  });

  it("closes stdin so commands that read input finish at once", async () => {
    const started = Date.now();
    const result = await run({ command: "read x; echo got:$x" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(textOf(result.content)).toContain("got:");
  });

  it("kills the whole process group on timeout, children included", async () => {
    const token = uniqueToken();
    const started = Date.now();
    const result = await runSeen(token, {
      command: `(exec -a ${token} sleep 100) & echo started; wait`,
      timeout: 1,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ timedOut: true, aborted: false });
    const text = textOf(result.content);
    expect(text).toContain("Command timed out after 1s");
    expect(text).toContain("started");
    expect(await waitUntil(() => processesWith(token).length === 0)).toBe(true);
  });

  it("escalates to SIGKILL when the command ignores SIGTERM", async () => {
    const token = uniqueToken();
    const result = await runSeen(token, {
      command: `trap '' TERM; (exec -a ${token} sleep 100) & wait`,
      timeout: 0.5,
    });
    expect(result.details?.timedOut).toBe(true);
    expect(await waitUntil(() => processesWith(token).length === 0)).toBe(true);
  });

  it("gives the command its grace time: SIGTERM first, then SIGKILL", async () => {
    const result = await run({
      command: "trap 'echo cleaning up; sleep 0.2; echo cleaned; exit 1' TERM; echo ready; sleep 100 & wait",
      timeout: 0.5,
    });
    expect(result.details?.timedOut).toBe(true);
    expect(textOf(result.content)).toMatch(/ready\ncleaning up\ncleaned\n$/);
  });

  it("stops the command when the task is aborted", async () => {
    setTimeout(() => test.controller.abort(), 200);
    const started = Date.now();
    const result = await run({ command: "echo started; sleep 100" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ aborted: true, timedOut: false });
    expect(textOf(result.content)).toMatch(/aborted[\s\S]*started/);
  });

  it("does not run at all when already aborted", async () => {
    test.controller.abort();
    const result = await run({ command: "touch ran.txt; sleep 5" });
    expect(result.details?.aborted).toBe(true);
    expect(textOf(result.content)).toContain("not run");
    expect(fs.existsSync(`${temp.root}/ran.txt`)).toBe(false);
  });

  it("keeps the head and tail of long output", async () => {
    const result = await run({ command: "seq 1 20000" }, { maxOutputChars: 1000 });
    const text = textOf(result.content);
    expect(result.details?.truncated).toBe(true);
    expect(text).toMatch(/^Command exited with code 0. Output:\n1\n2\n3\n/);
    expect(text).toMatch(/19999\n20000\n$/);
    const omitted = Number(/\[\.\.\. (\d+) characters omitted \.\.\.\]/.exec(text)?.[1]);
    // seq 1 20000 prints 108894 characters; 1000 are kept.
    expect(omitted).toBe(108894 - 1000);
    expect(text.length).toBeLessThan(1200);
  });

  it("strips colour codes and progress redraws from what the model sees", async () => {
    const result = await run({ command: "printf '\\033[31mred\\033[0m\\n10%%\\r50%%\\r100%%\\n'" });
    expect(textOf(result.content)).toBe("Command exited with code 0. Output:\nred\n100%\n");
    expect(test.progress.join("")).toContain("\u001b[31m");
  });

  it("falls back to the shell it is given", async () => {
    const result = await run({ command: 'echo "shell:$0"' }, { shell: "/bin/sh" });
    expect(textOf(result.content)).toContain("shell:/bin/sh\n");
  });

  it("is mutating and summarizes the command's first line", () => {
    const tool = createExecuteCommandTool({ workspace: temp.workspace });
    expect(tool.mutates).toBe(true);
    expect(tool.summarize({ command: "npm test" })).toBe("execute_command npm test");
    expect(tool.summarize({ command: "echo a\necho b" })).toBe("execute_command echo a …");
  });
});

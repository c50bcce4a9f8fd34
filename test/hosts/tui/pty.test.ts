/**
 * The real `bowline` binary in a pseudo-terminal, against the fake model server: the person
 * types the task, approves a change shown as a diff, and leaves with Ctrl-C twice. The screen
 * is read through a headless xterm, 80 columns wide.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, makeWorkspace } from "../../support/cli.js";
import { type FakeModelServer, startFakeModelServer } from "../../support/fake-model-server.js";
import { runInPty } from "./pty.js";

const servers: FakeModelServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function start(
  script: Parameters<typeof startFakeModelServer>[0]["script"],
  args: string[] = [],
  env: Record<string, string> = {},
) {
  const server = await startFakeModelServer({ script, chunkSize: 6 });
  servers.push(server);
  const { repo, home } = makeWorkspace();
  const run = runInPty(CLI, {
    cwd: repo,
    args: ["--provider", "anthropic", "--model", "fake-model", "--base-url", server.url, ...args],
    env: { ANTHROPIC_API_KEY: "sk-ant-test-pty", BOWLINE_HOME: home, ...env },
  });
  return { server, repo, home, run };
}

describe("the TUI in a terminal", () => {
  it("runs a task with an approval: diff shown, approved, result, exit", async () => {
    const { repo, run, server } = await start([
      {
        text: "I will add a note about the **calculator**.",
        toolCalls: [{ name: "replace_in_file", input: { path: "README.md", diff: README_EDIT } }],
        usage: { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 3000 },
      },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Added a note to README.md." } }] },
    ]);
    writeFileSync(join(repo, "README.md"), "# Calculator\n\nAdds numbers.\n");
    await run.waitFor("What should Bowline do?");
    run.press("Add a note to the README");
    await run.waitFor("Add a note to the README");
    run.press("\r");
    const approval = await run.waitFor("[y] approve once");
    expect(approval).toContain("Allow this change?  replace_in_file README.md");
    expect(approval).toContain("-Adds numbers.");
    expect(approval).toContain("+Adds numbers, and subtracts them.");
    expect(approval).toContain("I will add a note about the calculator.");
    expect(approval).toMatch(/ACT .*ctx/);
    capture("approval", approval);
    run.press("y");
    const done = await run.waitFor("done · type to go on");
    expect(done).toContain("✓ replace_in_file README.md");
    expect(done).toContain("Added a note to README.md.");
    expect(readFileSync(join(repo, "README.md"), "utf8")).toContain("Adds numbers, and subtracts them.");
    expect(server.requests).toHaveLength(2);
    capture("done", done);
    // /undo puts the file back through the checkpoint store; /diff then shows no change.
    run.press("/undo");
    await run.waitFor("/undo");
    run.press("\r");
    const undone = await run.waitFor("Undone: the files are back to before");
    expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("# Calculator\n\nAdds numbers.\n");
    capture("undo", undone);
    run.press("\x03");
    await run.waitFor("Press Ctrl-C again to exit");
    run.press("\x03");
    expect(await run.exited).toBe(0);
    // Nothing is redrawn from the top: the terminal is never cleared.
    expect(run.output()).not.toContain("\x1b[2J");
  });
});

describe("/clear in a terminal", () => {
  it("keeps the finished task and starts a new one with an empty context", async () => {
    const { run, server, home } = await start([
      { toolCalls: [{ name: "attempt_completion", input: { result: "First task done." } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Second task done." } }] },
    ]);
    await run.waitFor("What should Bowline do?");
    for (const [line, shown] of [
      ["Count the files", "First task done."],
      ["/clear", "What should Bowline do?"],
      ["Name the project", "Second task done."],
    ]) {
      run.press(line!);
      await run.waitFor(line!);
      run.press("\r");
      await run.waitFor(shown!);
    }
    // The new task's request carries its own message only; both tasks are stored.
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second).toContain("Name the project");
    expect(second).not.toContain("Count the files");
    expect(readdirSync(join(home, "tasks"))).toHaveLength(2);
    run.press("\x03");
    await run.waitFor("Press Ctrl-C again to exit");
    run.press("\x03");
    expect(await run.exited).toBe(0);
  });
});

describe("the first run in a project that adds allow rules", () => {
  it("asks whether to trust them before the TUI starts, and remembers the answer", async () => {
    const server = await startFakeModelServer({ script: [] });
    servers.push(server);
    const { repo, home } = makeWorkspace();
    mkdirSync(join(repo, ".bowline"), { recursive: true });
    writeFileSync(
      join(repo, ".bowline", "approvals.json"),
      JSON.stringify({ permissions: { allow: ["execute_command(make)"] } }),
    );
    const run = runInPty(CLI, {
      cwd: repo,
      args: ["--provider", "anthropic", "--model", "fake-model", "--base-url", server.url],
      env: { ANTHROPIC_API_KEY: "sk-ant-test-pty", BOWLINE_HOME: home },
    });
    const question = await run.waitFor("[y] trust");
    expect(question).toContain("1 allow rule(s) in .bowline/approvals.json: execute_command(make)");
    run.press("y\r");
    await run.waitFor("What should Bowline do?");
    const store = JSON.parse(readFileSync(join(home, "trusted-projects.json"), "utf8"));
    expect(Object.values(store)).toEqual([expect.objectContaining({ trusted: true })]);
    run.press("\x03");
    await run.waitFor("Press Ctrl-C again to exit");
    run.press("\x03");
    expect(await run.exited).toBe(0);
  });
});

/** With BOWLINE_TUI_CAPTURES=<dir>, screens are saved there (the README's screenshots). */
function capture(name: string, screen: string): void {
  const dir = process.env.BOWLINE_TUI_CAPTURES;
  if (dir) writeFileSync(join(dir, `${name}.txt`), `${screen.replace(/\s+$/, "")}\n`);
}

const README_EDIT = [
  "------- SEARCH",
  "Adds numbers.",
  "=======",
  "Adds numbers, and subtracts them.",
  "+++++++ REPLACE",
].join("\n");

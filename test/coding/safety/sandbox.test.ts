import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CommandSandbox, detectSandbox } from "../../../src/coding/safety/sandbox.js";
import { createExecuteCommandTool } from "../../../src/coding/tools/execute-command.js";
import { createWorkspace } from "../../../src/coding/workspace.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "../temp-workspace.js";
import { createTestToolContext } from "../tool-context.js";
import { createOutsideDir } from "./command-modes.js";

/**
 * Real bubblewrap around real commands. The places that must stay out of reach live outside the
 * temp directories (see `createOutsideDir`), because those are writable in the sandbox.
 */
/** An address of this machine besides loopback, if it has one. */
const hostAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((info) => info?.family === "IPv4" && !info.internal)?.address;

describe.runIf(process.platform === "linux")("the bubblewrap sandbox", () => {
  let temp: TempWorkspace;
  let outside: string;
  let fakeHome: string;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    temp = await createTempWorkspace({ "README.md": "hello\n" });
    outside = createOutsideDir();
    fakeHome = path.join(outside, "home");
    fs.mkdirSync(path.join(fakeHome, ".ssh"), { recursive: true });
    fs.writeFileSync(path.join(fakeHome, ".ssh", "id_ed25519"), "PRIVATE-KEY-MATERIAL\n");
    fs.mkdirSync(path.join(fakeHome, ".aws"));
    fs.writeFileSync(path.join(fakeHome, ".aws", "credentials"), "aws_secret=AWS-SECRET-MATERIAL\n");
    fs.writeFileSync(
      path.join(fakeHome, ".gitconfig"),
      "[user]\n  name = Sandbox Test\n  email = t@example.com\n",
    );
    server = http.createServer((_request, response) => response.end("REACHED-THE-HOST"));
    await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await temp.remove();
    fs.rmSync(outside, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  });

  const sandboxFor = (overrides: Partial<CommandSandbox> = {}): CommandSandbox => ({
    mode: "workspace-write",
    network: false,
    workspaceRoot: temp.root,
    home: fakeHome,
    ...overrides,
  });

  async function run(command: string, overrides: Partial<CommandSandbox> = {}, env: NodeJS.ProcessEnv = {}) {
    const tool = createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: sandboxFor(overrides),
      env: { ...process.env, HOME: fakeHome, ...env },
      defaultTimeoutSeconds: 60,
      inputWaitMs: 0,
    });
    const result = await tool.execute({ command }, createTestToolContext().ctx);
    return { ...result, text: textOf(result.content) };
  }

  it("works here (bwrap is installed by .ci/run)", async () => {
    expect(await detectSandbox()).toMatchObject({ available: true });
  });

  it("cannot write outside the workspace, and says the sandbox stopped it", async () => {
    const marker = path.join(outside, "escaped");
    const result = await run(`echo inside > inside.txt && touch ${marker}`);
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.readFileSync(path.join(temp.root, "inside.txt"), "utf8")).toBe("inside\n");
    expect(result.isError).toBe(true);
    expect(result.details?.sandboxed).toBe(true);
    expect(result.details?.sandboxFailure).toMatch(/outside the workspace/);
    expect(result.text).toMatch(/\[Sandbox\].*unsandboxed: true/);
  });

  it("cannot read ~/.ssh or ~/.aws, nor credentials in the environment", async () => {
    const result = await run(
      "cat ~/.ssh/id_ed25519 ~/.aws/credentials; ls -a ~/.ssh; echo key=[$ANTHROPIC_API_KEY]",
      {},
      { ANTHROPIC_API_KEY: "sk-ant-should-not-leak" },
    );
    expect(result.text).not.toMatch(/PRIVATE-KEY-MATERIAL|AWS-SECRET-MATERIAL|should-not-leak/);
    expect(result.text).toMatch(/key=\[\]/);
    // The files are still there for the person.
    expect(fs.readFileSync(path.join(fakeHome, ".ssh", "id_ed25519"), "utf8")).toMatch(/PRIVATE/);
  });

  /** Node code that prints what http://host:port/ answers, or the error code. */
  const fetchScript = (host: string) =>
    `require('http').get('http://${host}:${port}/', r => r.on('data', d => process.stdout.write(d))).on('error', e => { console.log(e.code); process.exit(7) })`;
  const connect = (host: string) => `node -e "${fetchScript(host)}"`;

  it("cannot reach the network when off: a server on the host's loopback is unreachable", async () => {
    const result = await run(connect("127.0.0.1"));
    expect(result.text).not.toMatch(/REACHED-THE-HOST/);
    expect(result.text).toMatch(/ECONNREFUSED/);
    expect(result.details?.sandboxFailure).toMatch(/network/);
  });

  it.runIf(hostAddress)(
    "cannot reach the network when off: nor another address of this machine",
    async () => {
      const address = hostAddress ?? "";
      // Asynchronously: the server answers from this process.
      const direct = (await promisify(execFile)("node", ["-e", fetchScript(address)])).stdout;
      // The address works from outside the sandbox, so failing inside is the sandbox's doing.
      expect(direct).toMatch(/REACHED-THE-HOST/);
      const result = await run(connect(address));
      expect(result.text).not.toMatch(/REACHED-THE-HOST/);
      expect(result.text).toMatch(/ENETUNREACH/);
      expect(result.details?.sandboxFailure).toMatch(/network/);
    },
  );

  it("reaches the network when allowed", async () => {
    const result = await run(connect("127.0.0.1"), { network: true });
    expect(result.text).toMatch(/REACHED-THE-HOST/);
  });

  it("cannot plant a key in ~/.ssh or change a file in the home directory", async () => {
    fs.writeFileSync(path.join(fakeHome, ".ssh", "authorized_keys"), "ssh-ed25519 THE-PERSONS-KEY\n");
    const result = await run(
      "echo ssh-ed25519 ATTACKER >> ~/.ssh/authorized_keys; echo 'alias ls=evil' >> ~/.gitconfig",
    );
    expect(fs.readFileSync(path.join(fakeHome, ".ssh", "authorized_keys"), "utf8")).toBe(
      "ssh-ed25519 THE-PERSONS-KEY\n",
    );
    expect(fs.readFileSync(path.join(fakeHome, ".gitconfig"), "utf8")).not.toMatch(/evil/);
    expect(result.details?.sandboxFailure).toMatch(/outside the workspace/);
  });

  it("runs npm test and git init + commit inside the workspace", async () => {
    await temp.write({
      "package.json": JSON.stringify({
        name: "sandboxed",
        version: "1.0.0",
        scripts: { test: "node test.js" },
      }),
      "test.js": "require('fs').writeFileSync('test-ran.txt', 'ok'); console.log('TESTS PASSED');",
    });
    const npm = await run("npm test");
    expect(npm.text).toMatch(/TESTS PASSED/);
    expect(npm.details?.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(temp.root, "test-ran.txt"), "utf8")).toBe("ok");
    const git = await run("git init -q && git add -A && git commit -q -m 'first' && git log --oneline");
    expect(git.details?.exitCode, git.text).toBe(0);
    expect(git.text).toMatch(/first/);
    expect(execFileSync("git", ["-C", temp.root, "log", "--format=%an"], { encoding: "utf8" })).toMatch(
      /Sandbox Test/,
    );
  });

  /** A repository with one commit, outside the temp directories, and `git` for it. */
  function outsideRepo(name: string) {
    const repo = path.join(outside, name);
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repo, ...args], {
        encoding: "utf8",
        env: { ...process.env, HOME: fakeHome },
      });
    fs.mkdirSync(path.join(repo, "pkg"), { recursive: true });
    fs.writeFileSync(path.join(repo, "pkg", "a.txt"), "a\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "first");
    return { repo, git };
  }

  /** Runs `command` in the sandbox with `root` as the workspace. */
  async function runIn(root: string, command: string) {
    const tool = createExecuteCommandTool({
      workspace: createWorkspace(root),
      sandbox: sandboxFor({ workspaceRoot: root }),
      env: { ...process.env, HOME: fakeHome },
      inputWaitMs: 0,
    });
    const result = await tool.execute({ command }, createTestToolContext().ctx);
    return { ...result, text: textOf(result.content) };
  }

  it("commits in a workspace that is a subfolder of a repository; its hooks stay read-only", async () => {
    const { repo, git } = outsideRepo("subfolder-repo");
    const workspace = path.join(repo, "pkg");
    const commit = await runIn(workspace, "echo b > b.txt && git add b.txt && git commit -q -m second");
    expect(commit.details?.exitCode, commit.text).toBe(0);
    expect(git("log", "--format=%s")).toBe("second\nfirst\n");
    const hook = await runIn(workspace, "echo 'touch pwned' > ../.git/hooks/post-commit");
    expect(fs.existsSync(path.join(repo, ".git", "hooks", "post-commit"))).toBe(false);
    expect(hook.details?.sandboxFailure).toMatch(/\.git\/hooks/);
    // Only the repository's git directory: the rest of the repository stays read-only.
    await runIn(workspace, "echo changed > ../outside-the-workspace.txt");
    expect(fs.existsSync(path.join(repo, "outside-the-workspace.txt"))).toBe(false);
  });

  it("commits in a workspace that is a git worktree", async () => {
    const { repo, git } = outsideRepo("worktree-main");
    const worktree = path.join(outside, "worktree");
    git("worktree", "add", "-q", "-b", "feature", worktree);
    const commit = await runIn(worktree, "echo c > c.txt && git add c.txt && git commit -q -m in-worktree");
    expect(commit.details?.exitCode, commit.text).toBe(0);
    expect(git("log", "--format=%s", "feature")).toBe("in-worktree\nfirst\n");
    await runIn(worktree, `echo '[core]\n  hooksPath = /tmp' >> ${repo}/.git/config`);
    expect(fs.readFileSync(path.join(repo, ".git", "config"), "utf8")).not.toMatch(/hooksPath/);
  });

  it("keeps .git/hooks and .bowline read-only inside a writable workspace", async () => {
    fs.mkdirSync(path.join(temp.root, ".git", "hooks"), { recursive: true });
    fs.mkdirSync(path.join(temp.root, ".bowline"), { recursive: true });
    const result = await run(
      "echo evil > .git/hooks/pre-commit; echo x > .bowline/approvals.json; echo ok > fine.txt",
    );
    expect(fs.existsSync(path.join(temp.root, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(fs.existsSync(path.join(temp.root, ".bowline", "approvals.json"))).toBe(false);
    expect(fs.existsSync(path.join(temp.root, "fine.txt"))).toBe(true);
    expect(result.text).toMatch(/Read-only file system/);
  });

  it("read-only mode: the workspace cannot be written, temp can", async () => {
    const blocked = await run("touch ro-marker", { mode: "read-only" });
    expect(fs.existsSync(path.join(temp.root, "ro-marker"))).toBe(false);
    expect(blocked.details?.sandboxFailure).toMatch(/read-only/);
    const temporary = await run(`f=${os.tmpdir()}/bowline-ro-$$ && touch $f && rm $f && echo TEMP-OK`, {
      mode: "read-only",
    });
    expect(temporary.text).toMatch(/TEMP-OK/);
  });

  it("stops a sandboxed command at its timeout, with everything it started", async () => {
    const tool = createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: sandboxFor(),
      killGraceMs: 200,
      inputWaitMs: 0,
    });
    const started = Date.now();
    const result = await tool.execute(
      { command: "sleep 30 & sleep 30", timeout: 1 },
      createTestToolContext().ctx,
    );
    expect(result.details?.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("runs outside the sandbox when the call asks for it (after approval)", async () => {
    const marker = path.join(outside, "approved-outside");
    const tool = createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: sandboxFor(),
      inputWaitMs: 0,
    });
    const result = await tool.execute(
      { command: `touch ${marker}`, unsandboxed: true },
      createTestToolContext().ctx,
    );
    expect(result.details?.sandboxed).toBeUndefined();
    expect(fs.existsSync(marker)).toBe(true);
  });
});

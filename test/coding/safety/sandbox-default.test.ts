import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BackgroundRegistry } from "../../../src/coding/process/background-registry.js";
import {
  createPermissionDecider,
  loadPermissionSetup,
  type PermissionSetup,
} from "../../../src/coding/safety/permission-setup.js";
import { detectSandbox } from "../../../src/coding/safety/sandbox.js";
import { createExecuteCommandTool } from "../../../src/coding/tools/execute-command.js";
import { createTempWorkspace, type TempWorkspace } from "../temp-workspace.js";
import { createTestToolContext } from "../tool-context.js";
import { callThroughPolicy, createOutsideDir } from "./command-modes.js";

/**
 * The sandbox as a session gets it: settings files, the bubblewrap probe, the permission policy,
 * the real tool executor and real commands. What is not allowed must not have run: its marker
 * file is absent.
 */
describe.runIf(process.platform === "linux")("the command sandbox by default", () => {
  let temp: TempWorkspace;
  let home: string;
  let outside: string;
  let marker: string;
  let asked = 0;
  beforeAll(() => {
    outside = createOutsideDir();
    marker = path.join(outside, "marker");
  });
  afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));
  beforeEach(async () => {
    temp = await createTempWorkspace({ "README.md": "hello\n" });
    home = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-home-"));
    fs.rmSync(marker, { force: true });
    asked = 0;
    return async () => {
      await temp.remove();
      fs.rmSync(home, { recursive: true, force: true });
    };
  });

  const setupWith = (sandbox?: object, detect?: typeof detectSandbox) => {
    if (sandbox) fs.writeFileSync(path.join(home, "approvals.json"), JSON.stringify({ sandbox }));
    return loadPermissionSetup({
      home,
      workspace: temp.workspace,
      ...(detect ? { detectSandbox: () => detect() } : {}),
    });
  };

  /** Runs a model's call through the policy and, if allowed, the real tool. */
  async function call(
    setup: PermissionSetup,
    input: { command: string; unsandboxed?: boolean },
    options: { interactive: boolean; approve?: boolean },
  ) {
    const tool = createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: setup.sandbox,
      inputWaitMs: 0,
    });
    return callThroughPolicy({
      tool,
      input,
      decide: createPermissionDecider(setup),
      interactive: options.interactive,
      approve: () => {
        asked++;
        return options.approve === true;
      },
    });
  }

  it("commands without network share one private localhost: a server one starts answers the next, not the host", async () => {
    const setup = await setupWith();
    expect(setup.sandbox?.sharedLoopback).toBe(true);
    const registry = new BackgroundRegistry();
    const tool = createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: setup.sandbox,
      inputWaitMs: 0,
      registry,
      backgroundStartMs: 1500,
    });
    const run = async (command: string, background = false) => {
      await tool.prepare?.();
      const result = await tool.execute({ command, background }, createTestToolContext().ctx);
      return String(result.content);
    };
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    try {
      const server = await run(
        `node -e "require('http').createServer((q, r) => r.end('from the sandbox')).listen(${port}, '127.0.0.1', () => console.log('listening'))"`,
        true,
      );
      expect(server).toContain("listening");
      expect(server).toContain("later commands can reach its ports on localhost");
      const client = await run(
        `node -e "fetch('http://127.0.0.1:${port}').then((r) => r.text()).then(console.log, (e) => console.log('unreachable', e.cause && e.cause.code))"`,
      );
      expect(client).toContain("from the sandbox");
      // The host does not share the namespace.
      await expect(fetch(`http://127.0.0.1:${port}`)).rejects.toThrow();
      // Nor is anything outside reachable from it.
      const outside = await run(
        `node -e "fetch('http://1.1.1.1').then(() => console.log('reached'), (e) => console.log('unreachable', e.cause && e.cause.code))"`,
      );
      expect(outside).toContain("unreachable");
    } finally {
      await registry.disposeAll();
    }
  });

  it("runs commands in a workspace-write sandbox without network, and says nothing about it", async () => {
    const setup = await setupWith();
    expect(setup.sandbox).toMatchObject({
      mode: "workspace-write",
      network: false,
      workspaceRoot: temp.root,
    });
    expect(setup.announceSandbox).toBe(false);
    expect(setup.sandboxNote).toBe(
      "Commands run in a workspace-write sandbox (bubblewrap): only the workspace and temp directories are writable, without network.",
    );
    // Bowline's home (settings, keys, journals) is hidden from commands.
    fs.writeFileSync(path.join(home, "secret.json"), "BOWLINE-HOME-SECRET");
    const { text } = await call(
      setup,
      { command: `cat ${home}/secret.json; echo done` },
      { interactive: true, approve: true },
    );
    expect(text).toMatch(/done/);
    expect(text).not.toMatch(/BOWLINE-HOME-SECRET/);
  });

  it("autoApprove: a write outside the workspace runs unasked, the sandbox stops it and says how to retry", async () => {
    const setup = await setupWith({ autoApprove: true });
    const { outcome, text } = await call(
      setup,
      { command: `echo inside > inside.txt; touch ${marker}` },
      { interactive: false },
    );
    expect(asked).toBe(0);
    expect(fs.readFileSync(path.join(temp.root, "inside.txt"), "utf8")).toBe("inside\n");
    expect(fs.existsSync(marker)).toBe(false);
    expect(outcome.result.isError).toBe(true);
    expect(text).toMatch(/Read-only file system/);
    expect(text).toMatch(
      /\[Sandbox\] This looks like a failure caused by the sandbox: .*outside the workspace/,
    );
    expect(text).toMatch(/call execute_command again with unsandboxed: true; the user will be asked/);
  });

  it("unsandboxed: true always asks; refused or unanswerable, the marker stays absent", async () => {
    const setup = await setupWith({ autoApprove: true });
    const input = { command: `touch ${marker}`, unsandboxed: true };
    const refused = await call(setup, input, { interactive: true, approve: false });
    expect(asked).toBe(1);
    expect(refused.outcome.rejected).toBe(true);
    expect(fs.existsSync(marker)).toBe(false);
    const unattended = await call(setup, input, { interactive: false });
    expect(unattended.text).toMatch(/^Denied: .*outside the sandbox/);
    expect(fs.existsSync(marker)).toBe(false);
    // Approved, it runs outside the sandbox: the harness is not a no-op.
    await call(setup, input, { interactive: true, approve: true });
    expect(fs.existsSync(marker)).toBe(true);
  });

  it("read-only: the workspace cannot be written either", async () => {
    const setup = await setupWith({ mode: "read-only", autoApprove: true });
    expect(setup.sandbox?.mode).toBe("read-only");
    expect(setup.announceSandbox).toBe(true);
    const { text } = await call(setup, { command: "touch ro-marker" }, { interactive: false });
    expect(fs.existsSync(path.join(temp.root, "ro-marker"))).toBe(false);
    expect(text).toMatch(/\[Sandbox\].*read-only/);
  });

  it("off when the person says so, and said once", async () => {
    const setup = await setupWith({ mode: "off", autoApprove: true });
    expect(setup.sandbox).toBeUndefined();
    expect(setup.announceSandbox).toBe(true);
    expect(setup.sandboxNote).toBe("Commands run without a sandbox (sandbox.mode is off).");
    // Nothing is auto-approved without a sandbox: the write asks, and refused, it does not run.
    await call(setup, { command: `touch ${marker}` }, { interactive: true, approve: false });
    expect(asked).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);
  });

  describe("where bubblewrap cannot run", () => {
    let fakeBin: string;
    beforeAll(() => {
      // A bwrap like one on a machine with user namespaces turned off.
      fakeBin = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-fake-bwrap-"));
      fs.writeFileSync(
        path.join(fakeBin, "bwrap"),
        "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
        { mode: 0o755 },
      );
    });
    afterAll(() => fs.rmSync(fakeBin, { recursive: true, force: true }));

    it("detection says why: no bwrap, a bwrap that fails, another OS", async () => {
      expect(await detectSandbox({ searchPath: path.join(fakeBin, "missing") })).toEqual({
        available: false,
        reason: "bubblewrap (bwrap) is not installed",
      });
      expect(await detectSandbox({ searchPath: fakeBin })).toEqual({
        available: false,
        reason: "bwrap cannot run here (bwrap: setting up uid map: Permission denied)",
      });
      expect(await detectSandbox({ platform: "darwin" })).toEqual({
        available: false,
        reason: "there is no OS sandbox for darwin yet",
      });
    });

    it("says so once and falls back to asking, even with autoApprove", async () => {
      const setup = await setupWith({ autoApprove: true }, () => detectSandbox({ searchPath: fakeBin }));
      expect(setup.sandbox).toBeUndefined();
      expect(setup.announceSandbox).toBe(true);
      expect(setup.sandboxNote).toBe(
        "Commands run without a sandbox: bwrap cannot run here (bwrap: setting up uid map: Permission denied). Commands that are not read-only ask first.",
      );
      const { outcome } = await call(setup, { command: `touch ${marker}` }, { interactive: true });
      expect(asked).toBe(1);
      expect(outcome.rejected).toBe(true);
      expect(fs.existsSync(marker)).toBe(false);
    });

    it("names the mode the person asked for", async () => {
      const setup = await setupWith({ mode: "read-only" }, () => detectSandbox({ platform: "darwin" }));
      expect(setup.sandbox).toBeUndefined();
      expect(setup.sandboxNote).toMatch(
        /^Commands run without a sandbox \(sandbox\.mode is read-only\): there is no OS sandbox for darwin yet\./,
      );
    });
  });
});

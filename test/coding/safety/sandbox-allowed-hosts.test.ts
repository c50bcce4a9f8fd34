/**
 * `sandbox.allowedHosts` as a session gets it: settings, the real bubblewrap sandbox without
 * network, the shared namespace's relay and the proxy, and real curl. The listed host answers,
 * through plain HTTP and CONNECT; nothing else is reached, and the model is told which host was
 * refused.
 */
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPermissionSetup, type PermissionSetup } from "../../../src/coding/safety/permission-setup.js";
import { detectSandbox, findProgram } from "../../../src/coding/safety/sandbox.js";
import { canShareNetwork, startSharedNetwork } from "../../../src/coding/safety/sandbox-network.js";
import { createExecuteCommandTool } from "../../../src/coding/tools/execute-command.js";
import { createTempWorkspace, type TempWorkspace } from "../temp-workspace.js";
import { createTestToolContext } from "../tool-context.js";

const probe = await detectSandbox();
const curl = findProgram("curl", process.env.PATH ?? "");

describe.runIf(probe.available && canShareNetwork() && curl)("sandbox.allowedHosts", () => {
  let temp: TempWorkspace;
  let home: string;
  let origin: http.Server;
  let port: number;
  let seen: string[];
  let setup: PermissionSetup;

  beforeAll(async () => {
    seen = [];
    origin = http.createServer((request, response) => {
      seen.push(request.url ?? "");
      response.end(`origin saw ${request.url}\n`);
    });
    await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
    port = (origin.address() as net.AddressInfo).port;
    temp = await createTempWorkspace({ "README.md": "hello\n" });
    home = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-home-"));
    fs.writeFileSync(
      path.join(home, "approvals.json"),
      JSON.stringify({ sandbox: { allowedHosts: [`allowed.test:${port}`] } }),
    );
    setup = await loadPermissionSetup({ home, workspace: temp.workspace });
    // The namespace for this allowlist, started first with names the test machine can resolve
    // (the tool then finds it started).
    await startSharedNetwork(probe.available ? probe.bwrapPath : "", {
      allowedHosts: setup.sandbox?.allowedHosts ?? [],
      lookup: async (host) => (host.endsWith(".test") ? "127.0.0.1" : host),
      allowLocal: true,
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => origin.close(resolve));
    await temp.remove();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const run = async (command: string) => {
    const tool = createExecuteCommandTool({
      workspace: temp.workspace,
      sandbox: setup.sandbox,
      inputWaitMs: 0,
    });
    await tool.prepare?.();
    const result = await tool.execute({ command }, createTestToolContext().ctx);
    return { ...result, text: String(result.content), description: tool.description };
  };

  it("says which hosts are reachable, to the person and to the model", async () => {
    expect(setup.announceSandbox).toBe(true);
    expect(setup.sandboxNote).toBe(
      `Commands run in a workspace-write sandbox (bubblewrap): only the workspace and temp directories are writable, without network but for 1 allowed host(s) through a proxy (allowed.test:${port}).`,
    );
    const { description } = await run("true");
    expect(description).toContain(`only these hosts are reachable, through the HTTP(S) proxy`);
    expect(description).toContain(`allowed.test:${port}`);
  });

  it("reaches the allowed host through the proxy, plain and tunnelled", async () => {
    const plain = await run(`curl -sS http://allowed.test:${port}/plain`);
    expect(plain.text).toContain("origin saw /plain");
    const tunnelled = await run(`curl -sS --proxytunnel http://allowed.test:${port}/tunnel`);
    expect(tunnelled.text).toContain("origin saw /tunnel");
    expect(tunnelled.isError).toBeFalsy();
  });

  it("refuses any other host, names it for the model, and the host sees nothing", async () => {
    const before = seen.length;
    const refused = await run(`curl -sSf --proxytunnel http://denied.test:${port}/secret`);
    expect(refused.isError).toBe(true);
    expect(refused.details?.sandboxFailure).toBe(
      `it tried to reach denied.test:${port} (it is not in sandbox.allowedHosts), and the sandbox's proxy refused`,
    );
    expect(refused.text).toMatch(/\[Sandbox\] This looks like a failure caused by the sandbox/);
    // A client that shows the refusal and exits 0 still gets the note.
    const shown = await run(`curl -sS http://other.test:${port}/by-name`);
    expect(shown.isError).toBeFalsy();
    expect(shown.text).toContain(`Bowline's sandbox refused other.test:${port}`);
    expect(shown.text).toContain(
      `[Sandbox] The sandbox's proxy refused other.test:${port} (it is not in sandbox.allowedHosts)`,
    );
    // Around the proxy there is no way out: localhost is the namespace's own, not the host's.
    const direct = await run(`curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${port}/direct`);
    expect(direct.details?.exitCode).not.toBe(0);
    expect(direct.text).toMatch(/Failed to connect|Couldn't connect/);
    expect(seen.slice(before)).toEqual([]);
  });
});

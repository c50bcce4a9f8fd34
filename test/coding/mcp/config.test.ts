// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are what mcp.json holds.
/**
 * MCP configuration: the mcpServers shape, `${VAR}` resolution, errors that name the server
 * and field while the other servers still start, project servers that need trust, disabled ones.
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMcpConfig, resolveVariables } from "../../../src/coding/mcp/config.js";
import { openMcpHub, type RunningMcpHub } from "../../../src/coding/mcp/mcp-hub.js";
import { isTrusted, trustFile, trustServer } from "../../../src/coding/mcp/trust.js";
import { createSandbox, type Sandbox, testServerEntry } from "./support.js";

let box: Sandbox;
let hub: RunningMcpHub | undefined;
beforeEach(() => {
  box = createSandbox();
});
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  box.remove();
});

describe("loadMcpConfig", () => {
  it("reads stdio and remote entries, infers the transport and resolves ${VAR}", () => {
    box.writeUser({
      local: {
        command: "${TOOLS}/server",
        args: ["--token", "${TOKEN}"],
        env: { KEY: "${TOKEN}" },
        timeout: 5,
      },
      remote: { url: "https://mcp.example.com/sse", headers: { Authorization: "Bearer ${TOKEN}" } },
      http: { type: "http", url: "${BASE:-https://fallback.example.com}/mcp", autoApprove: ["read"] },
    });
    const config = loadMcpConfig(box.home, box.workspace, { TOOLS: "/opt/tools", TOKEN: "t0k" });
    expect(config.problems).toEqual([]);
    const [local, remote, http] = config.servers;
    expect(local).toMatchObject({
      scope: "user",
      transport: {
        type: "stdio",
        command: "/opt/tools/server",
        args: ["--token", "t0k"],
        env: { KEY: "t0k" },
      },
      timeoutMs: 5000,
    });
    expect(remote!.transport).toEqual({
      type: "sse",
      url: "https://mcp.example.com/sse",
      headers: { Authorization: "Bearer t0k" },
    });
    expect(http).toMatchObject({
      transport: { type: "streamableHttp", url: "https://fallback.example.com/mcp" },
      autoApprove: ["read"],
      timeoutMs: 60_000,
    });
  });

  it("names the server and field of each mistake and keeps the valid servers", () => {
    box.writeUser(
      {
        good: { command: "node" },
        badArgs: { command: "node", args: ["ok", 3] },
        noCommand: { args: ["x"], type: "stdio" },
        badUrl: { url: "ftp://example.com" },
        missingVar: { command: "node", env: { TOKEN: "${NOT_SET_ANYWHERE}" } },
        badTimeout: { command: "node", timeout: 0 },
      },
      { lazySchemas: "sometimes" },
    );
    const config = loadMcpConfig(box.home, box.workspace, {});
    expect(config.servers.map((s) => s.name)).toEqual(["good"]);
    const byServer = Object.fromEntries(config.problems.map((p) => [p.server ?? "(file)", p.message]));
    expect(byServer).toEqual({
      "(file)": 'lazySchemas must be "auto", "on" or "off".',
      badArgs: expect.stringMatching(/^field args\.1: /),
      noCommand: "field command: a stdio server needs a command.",
      badUrl: 'field url: "ftp://example.com" is not an http(s) URL.',
      missingVar: "field env.TOKEN: the environment variable NOT_SET_ANYWHERE is not set.",
      badTimeout: expect.stringMatching(/^field timeout: /),
    });
    expect(config.problems.every((p) => p.source === join(box.home, "mcp.json"))).toBe(true);
  });

  it("reports a file that is not JSON, and a project server that reuses one of the user's names", () => {
    writeFileSync(join(box.home, "mcp.json"), "{ not json");
    box.writeProject({ a: { command: "node" } });
    expect(loadMcpConfig(box.home, box.workspace, {}).problems).toEqual([
      { source: join(box.home, "mcp.json"), message: expect.stringMatching(/^cannot be read: /) },
    ]);
    box.writeUser({ a: { command: "node" } });
    const config = loadMcpConfig(box.home, box.workspace, {});
    expect(config.servers.map((s) => `${s.name}:${s.scope}`)).toEqual(["a:user"]);
    expect(config.problems[0]!.message).toMatch(/ignored: your own configuration has a server named "a"/);
  });

  it("resolves defaults and leaves text without references alone", () => {
    expect(resolveVariables("a${X:-b}c$d", "f", {})).toBe("abc$d");
    expect(() => resolveVariables("${X}", "args.0", { X: "" })).toThrow(
      "field args.0: the environment variable X",
    );
  });
});

describe("project servers and trust", () => {
  it("keys trust on the definition: a changed definition needs trust again, disabling does not", () => {
    box.writeProject({ p: { command: "node", args: ["server.js"] } });
    const [server] = loadMcpConfig(box.home, box.workspace, {}).servers;
    expect(isTrusted(box.home, box.workspace, server!)).toBe(false);
    trustServer(box.home, box.workspace, server!);
    expect(statSync(trustFile(box.home)).mode & 0o777).toBe(0o600);
    expect(isTrusted(box.home, box.workspace, server!)).toBe(true);
    expect(isTrusted(box.home, join(box.workspace, "other"), server!)).toBe(false);
    box.writeProject({ p: { command: "node", args: ["server.js"], disabled: true } });
    expect(isTrusted(box.home, box.workspace, loadMcpConfig(box.home, box.workspace, {}).servers[0]!)).toBe(
      true,
    );
    box.writeProject({ p: { command: "node", args: ["evil.js"] } });
    expect(isTrusted(box.home, box.workspace, loadMcpConfig(box.home, box.workspace, {}).servers[0]!)).toBe(
      false,
    );
  });

  it("starts user and trusted project servers, and reports untrusted, disabled and invalid ones", async () => {
    box.writeUser({
      mine: testServerEntry(),
      off: { ...testServerEntry(), disabled: true },
      broken: { args: [] },
    });
    box.writeProject({ theirs: testServerEntry(["--tools", "1"]) });
    hub = openMcpHub({ home: box.home, workspaceRoot: box.workspace, env: process.env });
    await hub.whenSettled();
    const status = Object.fromEntries(hub.listServers().map((s) => [s.name, s.status]));
    expect(status).toEqual({ mine: "connected", off: "disabled", theirs: "untrusted", broken: "invalid" });
    expect(hub.listServers().find((s) => s.name === "broken")!.error).toMatch(
      /mcp\.json: field command: needs a command \(a local server\) or a url/,
    );
    const theirs = hub.listServers().find((s) => s.name === "theirs")!;
    expect(theirs).toMatchObject({ disabled: true, tools: [] });
    expect(theirs.error).toMatch(/not been trusted yet .*bowline mcp trust theirs/);
    const signal = new AbortController().signal;
    await expect(hub.callTool("theirs", "echo", {}, signal)).rejects.toThrow(
      /cannot be used: a project server/,
    );
    await expect(hub.callTool("off", "echo", {}, signal)).rejects.toThrow(
      'The MCP server "off" is disabled.',
    );
    await hub.close();

    trustServer(box.home, box.workspace, loadMcpConfig(box.home, box.workspace, {}).servers.at(-1)!);
    hub = openMcpHub({ home: box.home, workspaceRoot: box.workspace, env: process.env });
    await hub.whenSettled();
    expect(hub.listServers().find((s) => s.name === "theirs")!.status).toBe("connected");
  });
});

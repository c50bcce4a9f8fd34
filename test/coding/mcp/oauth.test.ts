/**
 * OAuth for remote servers against a real OAuth-protected server: the project's test server in
 * `oauth` mode (streamable HTTP behind bearer tokens, with the SDK's authorization server on the
 * same origin). Sign-in through `bowline mcp login` (registration, authorization code with PKCE,
 * the browser's redirect to the local callback), tokens stored 0600, the hub's connections
 * using them, a server never signed in to, a forged callback, sign-out.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseServer } from "../../../src/coding/mcp/config.js";
import { createMcpHub, type RunningMcpHub } from "../../../src/coding/mcp/mcp-hub.js";
import { oauthDir, oauthFile } from "../../../src/coding/mcp/oauth.js";
import { signInToServer } from "../../../src/coding/mcp/oauth-login.js";
import { runMcpCommand } from "../../../src/hosts/cli/mcp.js";
import { createSandbox, type RemoteServer, type Sandbox, startRemoteTestServer } from "./support.js";

let remote: RemoteServer | undefined;
let box: Sandbox | undefined;
const hubs: RunningMcpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  remote?.stop();
  box?.remove();
  remote = box = undefined;
});

/** What a browser does on the test server's sign-in page: it approves at once and redirects back. */
async function browser(url: string): Promise<void> {
  const page = await fetch(url, { redirect: "follow" });
  expect(page.status).toBe(200);
}

function remoteConfig(url: string) {
  const parsed = parseServer("remote", { type: "http", url }, "user", "test", {});
  if ("message" in parsed) throw new Error(parsed.message);
  return parsed;
}

function hubFor(home: string, url: string): RunningMcpHub {
  const hub = createMcpHub({
    config: { servers: [remoteConfig(url)], problems: [], lazySchemas: "auto" },
    cwd: process.cwd(),
    home,
    restart: { maxAttempts: 0 },
  });
  hubs.push(hub);
  hub.start();
  return hub;
}

async function runCli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMcpCommand(
    argv,
    box!.workspace,
    { BOWLINE_HOME: box!.home },
    {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      openUrl: browser,
    },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("OAuth sign-in to a remote server", () => {
  it("signs in with bowline mcp login, keeps the tokens 0600, and the hub's connection uses them", async () => {
    remote = await startRemoteTestServer("oauth");
    box = createSandbox();
    box.writeUser({ remote: { type: "http", url: remote.url } });

    const before = hubFor(box.home, remote.url);
    await before.whenSettled();
    expect(before.listServers()[0]).toMatchObject({
      status: "failed",
      error: "could not start: needs you to sign in: run `bowline mcp login remote`",
    });
    // Refused before registering: nothing is written for a server never signed in to.
    expect(existsSync(oauthFile(box.home, "remote"))).toBe(false);

    const login = await runCli("login", "remote");
    expect(login).toMatchObject({ code: 0, err: "" });
    expect(login.out).toBe(
      `Signed in to remote. Its tokens are kept in ${oauthFile(box.home, "remote")} (readable by you only).`,
    );
    const file = oauthFile(box.home, "remote");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(oauthDir(box.home)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({ url: remote.url, tokens: { token_type: "bearer" } });
    expect(stored.client.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(login.out).not.toContain(stored.tokens.access_token);

    const hub = hubFor(box.home, remote.url);
    await hub.whenSettled();
    expect(hub.listServers()[0]!.status).toBe("connected");
    const signal = new AbortController().signal;
    expect(await hub.callTool("remote", "echo", { text: "signed in" }, signal)).toEqual({
      content: [{ type: "text", text: "echo: signed in" }],
    });

    expect((await runCli("test", "remote")).out).toMatch(/^remote: connected in \d+ ms: 8 tools/);
    expect(await runCli("logout", "remote")).toMatchObject({
      code: 0,
      out: "Signed out of remote: its tokens are deleted.",
    });
    expect(existsSync(file)).toBe(false);
  });

  it("refuses a callback whose state is not the one it sent", async () => {
    remote = await startRemoteTestServer("oauth");
    const home = mkdtempSync(join(tmpdir(), "bowline-oauth-"));
    const forged = signInToServer({
      home,
      server: remoteConfig(remote.url),
      timeoutMs: 1000,
      open: async (url) => {
        const redirect = new URL(url.searchParams.get("redirect_uri")!);
        redirect.search = new URLSearchParams({ code: "stolen", state: "forged" }).toString();
        const answer = await fetch(redirect);
        expect(answer.status).toBe(400);
      },
    });
    await expect(forged).rejects.toThrow("nobody signed in within 1 s.");
    rmSync(home, { recursive: true, force: true });
  });

  it("says so when a server needs no sign-in, and refuses local servers", async () => {
    remote = await startRemoteTestServer("http");
    box = createSandbox();
    box.writeUser({ plain: { type: "http", url: remote.url }, local: { command: "node" } });
    expect(await runCli("login", "plain")).toMatchObject({
      code: 0,
      out: "plain did not ask for authorization: there is nothing to sign in to.",
    });
    expect(await runCli("login", "local")).toMatchObject({
      code: 2,
      err: "bowline mcp: local is a local server: only remote servers sign in.",
    });
  });
});

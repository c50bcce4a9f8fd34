/**
 * The allowlisting proxy on its Unix socket, spoken to as HTTP clients speak to a proxy: CONNECT
 * tunnels and absolute-URL requests. A refused host never sees a connection.
 */
import http from "node:http";
import net from "node:net";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parseAllowedHost } from "../../../src/coding/safety/allowed-hosts.js";
import { type HostProxy, startHostProxy } from "../../../src/coding/safety/host-proxy.js";

let origin: http.Server;
let port: number;
let seen: string[];
let proxy: HostProxy;

beforeEach(async () => {
  seen = [];
  origin = http.createServer((request, response) => {
    seen.push(`${request.headers.host} ${request.url}`);
    response.end(`origin saw ${request.url}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  port = (origin.address() as net.AddressInfo).port;
  proxy = await startHostProxy({
    allowed: [parseAllowedHost(`allowed.test:${port}`)],
    lookup: async (host) => (host.endsWith(".test") ? "127.0.0.1" : host),
    allowLocal: true,
  });
});
afterEach(async () => {
  proxy.close();
  await new Promise((resolve) => origin.close(resolve));
});

/** Sends raw bytes to a proxy's socket; resolves with everything it answered. */
function exchangeAt(
  socketPath: string,
  request: string,
  after?: (answer: string, socket: net.Socket) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
      after?.(answer, socket);
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.write(request);
  });
}

const exchange = (request: string, after?: (answer: string, socket: net.Socket) => void) =>
  exchangeAt(proxy.socketPath, request, after);

it("tunnels CONNECT to an allowed host", async () => {
  let sent = false;
  const answer = await exchange(
    `CONNECT allowed.test:${port} HTTP/1.1\r\nHost: allowed.test:${port}\r\n\r\n`,
    (text, socket) => {
      if (!sent && text.includes("\r\n\r\n")) {
        sent = true;
        socket.write(`GET /through HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n`);
      }
    },
  );
  expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n/);
  expect(answer).toContain("origin saw /through");
  expect(seen).toEqual(["allowed.test /through"]);
  expect(proxy.refusedSince(0)).toEqual([]);
});

it("refuses CONNECT to any other host or port, and the origin sees nothing", async () => {
  const start = Date.now();
  for (const target of [`denied.test:${port}`, `allowed.test:${port + 1}`, `127.0.0.1:${port}`]) {
    const answer = await exchange(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(answer).toContain(`Bowline's sandbox refused ${target}: it is not in sandbox.allowedHosts.`);
  }
  expect(seen).toEqual([]);
  expect(proxy.refusedSince(start).map((refusal) => `${refusal.host}:${refusal.port}`)).toEqual([
    `denied.test:${port}`,
    `allowed.test:${port + 1}`,
    `127.0.0.1:${port}`,
  ]);
});

it("forwards a plain HTTP request to an allowed host and refuses the rest", async () => {
  const ok = await exchange(
    `GET http://allowed.test:${port}/plain?q=1 HTTP/1.1\r\nHost: allowed.test:${port}\r\nProxy-Connection: close\r\nConnection: close\r\n\r\n`,
  );
  expect(ok).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(ok).toContain("origin saw /plain?q=1");
  const denied = await exchange(
    `GET http://denied.test:${port}/x HTTP/1.1\r\nHost: denied.test:${port}\r\nConnection: close\r\n\r\n`,
  );
  expect(denied).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
  expect(seen).toEqual([`allowed.test:${port} /plain?q=1`]);
});

it("answers malformed requests and unreachable hosts with an error, and keeps serving", async () => {
  const bad = await exchange("CONNECT nonsense HTTP/1.1\r\nHost: x\r\n\r\n");
  expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  const relative = await exchange("GET /relative HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  expect(relative).toMatch(/^HTTP\/1\.1 400 /);
  await new Promise((resolve) => origin.close(resolve));
  const down = await exchange(`CONNECT allowed.test:${port} HTTP/1.1\r\nHost: x\r\n\r\n`);
  expect(down).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
  origin = http.createServer((_request, response) => response.end("back"));
  await new Promise<void>((resolve) => origin.listen(port, "127.0.0.1", resolve));
  const again = await exchange(
    `GET http://allowed.test:${port}/ HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n`,
  );
  expect(again).toContain("back");
});

it("refuses an allowed name that resolves to a local address, and dials the address it checked", async () => {
  const strict = await startHostProxy({
    allowed: [parseAllowedHost(`allowed.test:${port}`), parseAllowedHost("metadata.test")],
    lookup: async (host) => (host === "metadata.test" ? "169.254.169.254" : "127.0.0.1"),
  });
  try {
    const exchangeWith = (request: string) => exchangeAt(strict.socketPath, request);
    const loopback = await exchangeWith(`CONNECT allowed.test:${port} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(loopback).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(loopback).toContain(`it resolves to 127.0.0.1, a local address the proxy never connects to`);
    const metadata = await exchangeWith(
      "GET http://metadata.test/latest/meta-data/ HTTP/1.1\r\nHost: metadata.test\r\nConnection: close\r\n\r\n",
    );
    expect(metadata).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(metadata).toContain("it resolves to 169.254.169.254");
    expect(seen).toEqual([]);
    expect(strict.refusedSince(0).map((refusal) => refusal.host)).toEqual(["allowed.test", "metadata.test"]);
  } finally {
    strict.close();
  }
});

it("answers a name that does not resolve with 502, not a refusal", async () => {
  const failing = await startHostProxy({
    allowed: [parseAllowedHost("nowhere.test")],
    lookup: async () => {
      throw new Error("getaddrinfo ENOTFOUND nowhere.test");
    },
  });
  try {
    const answer = await exchangeAt(
      failing.socketPath,
      "CONNECT nowhere.test:443 HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(answer).toContain("Cannot resolve nowhere.test: getaddrinfo ENOTFOUND");
    expect(failing.refusedSince(0)).toEqual([]);
  } finally {
    failing.close();
  }
});

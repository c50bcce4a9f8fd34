/**
 * The proxy through which sandboxed commands reach the hosts of `sandbox.allowedHosts`, and only
 * those. It runs in Bowline's process, on a Unix socket (a path, so it is reachable from the
 * sandbox's network namespace, where a relay listens on localhost for it; see
 * sandbox-network.ts). HTTPS goes through CONNECT tunnels and plain HTTP as absolute-URL
 * requests, the two forms that tools honouring HTTP(S)_PROXY use. Anything else is refused, and
 * each refusal is kept so the command's result can name the host.
 */
import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import { type AllowedHost, hostAllowed } from "./allowed-hosts.js";

export interface HostProxyOptions {
  allowed: readonly AllowedHost[];
  /** The address to dial for a host name (tests map names to loopback). Default: the name. */
  resolve?: (host: string) => string;
}

export interface Refusal {
  host: string;
  port: number;
  at: number;
}

export interface HostProxy {
  socketPath: string;
  /** Connections refused at or after `since` (ms since the epoch), oldest first. */
  refusedSince(since: number): Refusal[];
  close(): void;
}

/** Refusals kept for the command results that ask about them. */
const KEPT_REFUSALS = 50;

/** Starts the proxy on a socket in a new private directory; removed when the proxy closes or Bowline exits. */
export async function startHostProxy(options: HostProxyOptions): Promise<HostProxy> {
  // Loaded on first use: most sessions allow no hosts.
  const [http, net] = await Promise.all([import("node:http"), import("node:net")]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-proxy-"));
  const socketPath = path.join(dir, "proxy.sock");
  const refusals: Refusal[] = [];
  const resolve = options.resolve ?? ((host: string) => host);
  const admit = (host: string, port: number): boolean => {
    if (hostAllowed(options.allowed, host, port)) return true;
    refusals.push({ host, port, at: Date.now() });
    if (refusals.length > KEPT_REFUSALS) refusals.shift();
    return false;
  };
  const server = http.createServer((request, response) => forward(http, request, response, admit, resolve));
  server.on("connect", (request: http.IncomingMessage, client: Duplex, head: Buffer) =>
    tunnel(net, request, client, head, admit, resolve),
  );
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(socketPath, () => done());
  });
  server.unref();
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once("exit", remove);
  return {
    socketPath,
    refusedSince: (since) => refusals.filter((refusal) => refusal.at >= since),
    close() {
      server.close();
      server.closeAllConnections();
      process.off("exit", remove);
      remove();
    },
  };
}

const refusalText = (host: string, port: number) =>
  `Bowline's sandbox refused ${host}:${port}: it is not in sandbox.allowedHosts.\n`;

/** A CONNECT tunnel (HTTPS and anything else tunnelled) to an allowed host. */
function tunnel(
  net: typeof import("node:net"),
  request: http.IncomingMessage,
  client: Duplex,
  head: Buffer,
  admit: (host: string, port: number) => boolean,
  resolve: (host: string) => string,
): void {
  client.on("error", () => client.destroy());
  const target = parseAuthority(request.url ?? "");
  if (!target) {
    reply(client, 400, "Bad Request", "Expected CONNECT host:port.\n");
    return;
  }
  if (!admit(target.host, target.port)) {
    reply(client, 403, "Forbidden", refusalText(target.host, target.port));
    return;
  }
  const upstream = net.connect({ host: resolve(target.host), port: target.port });
  let connected = false;
  upstream.once("connect", () => {
    connected = true;
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.once("error", (error) => {
    if (!connected) reply(client, 502, "Bad Gateway", `${error.message}\n`);
    else client.destroy();
  });
  client.once("close", () => upstream.destroy());
}

/** A plain HTTP request (absolute URL) to an allowed host. */
function forward(
  http: typeof import("node:http"),
  request: http.IncomingMessage,
  response: http.ServerResponse,
  admit: (host: string, port: number) => boolean,
  resolve: (host: string) => string,
): void {
  let url: URL | undefined;
  try {
    url = new URL(request.url ?? "");
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "http:") {
    response.writeHead(400, { "content-type": "text/plain" }).end("Expected an absolute http:// URL.\n");
    return;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port === "" ? 80 : Number(url.port);
  if (!admit(host, port)) {
    response.writeHead(403, { "content-type": "text/plain" }).end(refusalText(host, port));
    return;
  }
  const headers = { ...request.headers };
  delete headers["proxy-connection"];
  delete headers["proxy-authorization"];
  const upstream = http.request(
    { host: resolve(host), port, method: request.method, path: `${url.pathname}${url.search}`, headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on("error", (error) => {
    if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
    response.end(`${error.message}\n`);
  });
  request.pipe(upstream);
}

function reply(client: Duplex, status: number, reason: string, body: string): void {
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** `host:port` or `[v6]:port`; undefined when malformed. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(authority);
  const port = Number(match?.[3]);
  if (!match || !(port >= 1 && port <= 65535)) return undefined;
  return { host: (match[1] ?? match[2])!, port };
}

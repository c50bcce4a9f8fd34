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
  /** The address of a host name. Default: the system's resolver (tests map names to loopback). */
  lookup?: (host: string) => Promise<string>;
  /**
   * Lets allowed names resolve to local addresses (loopback, link-local, unspecified). Off:
   * an allowed name that resolves to one (DNS pointed at the machine itself or at a cloud
   * metadata address) is refused. Tests turn it on to serve "remote" hosts from loopback.
   */
  allowLocal?: boolean;
}

export interface Refusal {
  host: string;
  port: number;
  at: number;
  /** Why, for the person and the model. */
  reason: string;
}

/** Where a connection goes, or why it does not. */
type Admission = { address: string } | { status: 403 | 502; text: string };

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
  const lookup = options.lookup ?? systemLookup;
  const refuse = (host: string, port: number, reason: string): Admission => {
    refusals.push({ host, port, at: Date.now(), reason });
    if (refusals.length > KEPT_REFUSALS) refusals.shift();
    return { status: 403, text: `Bowline's sandbox refused ${host}:${port}: ${reason}.\n` };
  };
  const admit = async (host: string, port: number): Promise<Admission> => {
    if (!hostAllowed(options.allowed, host, port)) return refuse(host, port, NOT_LISTED);
    let address: string;
    try {
      address = await lookup(host);
    } catch (error) {
      return { status: 502, text: `Cannot resolve ${host}: ${(error as Error).message}\n` };
    }
    if (!options.allowLocal && isLocalAddress(net, address))
      return refuse(host, port, `it resolves to ${address}, a local address the proxy never connects to`);
    return { address };
  };
  const server = http.createServer((request, response) => void forward(http, request, response, admit));
  server.on(
    "connect",
    (request: http.IncomingMessage, client: Duplex, head: Buffer) =>
      void tunnel(net, request, client, head, admit),
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

/** The reason for a host the allowlist does not name. */
export const NOT_LISTED = "it is not in sandbox.allowedHosts";

async function systemLookup(host: string): Promise<string> {
  const dns = await import("node:dns");
  return (await dns.promises.lookup(host)).address;
}

/** Loopback, link-local (cloud metadata services) and unspecified addresses, v4 and v6. */
function isLocalAddress(net: typeof import("node:net"), address: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.\d+\.\d+$/i.exec(address);
  if (v4 && net.isIPv4(address.replace(/^::ffff:/i, ""))) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 0 || (a === 169 && b === 254);
  }
  const v6 = address.toLowerCase();
  return v6 === "::1" || v6 === "::" || /^fe[89ab]/.test(v6);
}

/** A CONNECT tunnel (HTTPS and anything else tunnelled) to an allowed host. */
async function tunnel(
  net: typeof import("node:net"),
  request: http.IncomingMessage,
  client: Duplex,
  head: Buffer,
  admit: (host: string, port: number) => Promise<Admission>,
): Promise<void> {
  client.on("error", () => client.destroy());
  const target = parseAuthority(request.url ?? "");
  if (!target) {
    reply(client, 400, "Bad Request", "Expected CONNECT host:port.\n");
    return;
  }
  const admission = await admit(target.host, target.port);
  if ("status" in admission) {
    reply(client, admission.status, admission.status === 403 ? "Forbidden" : "Bad Gateway", admission.text);
    return;
  }
  // The address checked is the address dialled: no second lookup to rebind.
  const upstream = net.connect({ host: admission.address, port: target.port });
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
async function forward(
  http: typeof import("node:http"),
  request: http.IncomingMessage,
  response: http.ServerResponse,
  admit: (host: string, port: number) => Promise<Admission>,
): Promise<void> {
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
  const admission = await admit(host, port);
  if ("status" in admission) {
    response.writeHead(admission.status, { "content-type": "text/plain" }).end(admission.text);
    return;
  }
  const headers = { ...request.headers };
  delete headers["proxy-connection"];
  delete headers["proxy-authorization"];
  const upstream = http.request(
    { host: admission.address, port, method: request.method, path: `${url.pathname}${url.search}`, headers },
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

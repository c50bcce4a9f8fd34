/**
 * One network namespace for every sandboxed command of this process when the sandbox has no
 * network: it holds nothing but a loopback, so a server one command starts (a dev server, a test
 * database) is reachable from the next command, and from nothing outside the sandbox. Without
 * it each command would get a localhost of its own.
 *
 * A holder process (`sleep infinity` in a bwrap with a new user and network namespace, ended
 * with Bowline by --die-with-parent) keeps the namespace alive; each command enters it with
 * nsenter, then runs in its usual bwrap, minus --unshare-net. Where nsenter is missing or the
 * holder cannot start, commands fall back to a namespace of their own.
 *
 * With `sandbox.allowedHosts`, the holder is a small relay instead: it listens on the
 * namespace's localhost and passes each connection to the allowlisting proxy (host-proxy.ts),
 * whose Unix socket it reaches through the file system; commands' HTTP(S)_PROXY name the relay.
 */
import { childProcess } from "../process/child-process.js";
import { type AllowedHost, formatAllowedHost } from "./allowed-hosts.js";
import { type HostProxy, type HostProxyOptions, startHostProxy } from "./host-proxy.js";
import { findProgram } from "./sandbox.js";

export interface SharedNetwork {
  nsenterPath: string;
  /** A process inside the namespace (the holder), as nsenter's target. */
  pid: number;
  /** With allowed hosts: the relay's port on the namespace's localhost, and the proxy behind it. */
  proxy?: { port: number; hosts: HostProxy };
}

export interface SharedNetworkOptions {
  /** Hosts commands may reach through a proxy; none: nothing outside. */
  allowedHosts?: readonly AllowedHost[];
  /** How the proxy resolves names, and whether they may be local (tests: see host-proxy.ts). */
  lookup?: HostProxyOptions["lookup"];
  allowLocal?: boolean;
}

const HOLDER_START_TIMEOUT_MS = 5000;

/**
 * Inside the namespace, with allowed hosts, the holder is this relay: it listens on localhost
 * and hands each connection to the proxy's socket, a path it reaches through the file system.
 */
const RELAY = `const net=require("net");const socket=process.argv[1];
const server=net.createServer((c)=>{const u=net.connect(socket);const end=()=>{c.destroy();u.destroy()};
c.on("error",end);u.on("error",end);c.on("close",end);u.on("close",end);c.pipe(u);u.pipe(c)});
server.listen(0,"127.0.0.1",()=>process.stdout.write(server.address().port+"\\n"));`;

interface Entry {
  starting: Promise<SharedNetwork | undefined>;
  ready?: SharedNetwork;
}

/** One namespace per allowlist (sessions of one process may differ), keyed by its entries. */
const networks = new Map<string, Entry>();

const keyOf = (options: SharedNetworkOptions) =>
  (options.allowedHosts ?? []).map(formatAllowedHost).sort().join(" ");

/** Whether commands can share a network namespace here (nsenter is installed). */
export function canShareNetwork(searchPath = process.env.PATH ?? ""): boolean {
  return findProgram("nsenter", searchPath) !== undefined;
}

/** The shared namespace once started (see `startSharedNetwork`); undefined before or without one. */
export function sharedNetwork(options: SharedNetworkOptions = {}): SharedNetwork | undefined {
  return networks.get(keyOf(options))?.ready;
}

/**
 * Starts the holder once per process and allowlist; resolves undefined (commands fall back) when
 * it cannot start. A holder that ends after it started (killed from outside) is replaced by the
 * next call.
 */
export function startSharedNetwork(
  bwrapPath: string,
  options: SharedNetworkOptions = {},
): Promise<SharedNetwork | undefined> {
  const key = keyOf(options);
  const existing = networks.get(key);
  if (existing) return existing.starting;
  const entry: Entry = {
    starting: startNetwork(bwrapPath, options, () => {
      if (networks.get(key) !== entry) return;
      entry.ready?.proxy?.hosts.close();
      networks.delete(key);
    }).then((network) => {
      entry.ready = network;
      if (!network) networks.delete(key);
      return network;
    }),
  };
  networks.set(key, entry);
  return entry.starting;
}

async function startNetwork(
  bwrapPath: string,
  options: SharedNetworkOptions,
  onEnded: () => void,
): Promise<SharedNetwork | undefined> {
  const nsenterPath = findProgram("nsenter", process.env.PATH ?? "");
  if (!nsenterPath) return undefined;
  const allowed = options.allowedHosts ?? [];
  const hosts =
    allowed.length > 0
      ? await startHostProxy({
          allowed,
          ...(options.lookup ? { lookup: options.lookup } : {}),
          allowLocal: options.allowLocal === true,
        })
      : undefined;
  const program = hosts
    ? [process.execPath, "--max-old-space-size=32", "-e", RELAY, hosts.socketPath]
    : ["sleep", "infinity"];
  const holder = await startHolder(bwrapPath, program, hosts !== undefined, onEnded);
  if (!holder) {
    hosts?.close();
    return undefined;
  }
  const proxy = hosts && holder.relayPort !== undefined ? { proxy: { port: holder.relayPort, hosts } } : {};
  return { nsenterPath, pid: holder.pid, ...proxy };
}

interface Holder {
  pid: number;
  /** The relay's port, when the holder is the relay. */
  relayPort?: number;
}

/**
 * Starts `program` in a bwrap with a new user and network namespace; resolves once its pid (and,
 * for the relay, its port) is known, or undefined when it cannot start. `onEnded` is called when
 * a holder that started ends.
 */
function startHolder(
  bwrapPath: string,
  program: string[],
  relay: boolean,
  onEnded: () => void,
): Promise<Holder | undefined> {
  return new Promise((resolve) => {
    const args = ["--unshare-user", "--unshare-net", "--die-with-parent", "--ro-bind", "/", "/"];
    const holder = childProcess().spawn(bwrapPath, [...args, "--info-fd", "3", "--", ...program], {
      stdio: ["ignore", relay ? "pipe" : "ignore", "ignore", "pipe"],
    });
    let info = "";
    let output = "";
    let pid: number | undefined;
    let relayPort: number | undefined;
    let settled = false;
    let started = false;
    const finish = (found: Holder | undefined) => {
      if (settled) return;
      settled = true;
      started = found !== undefined;
      clearTimeout(timer);
      if (!found) holder.kill("SIGKILL");
      resolve(found);
    };
    const ready = () => {
      if (pid !== undefined && (!relay || relayPort !== undefined))
        finish({ pid, ...(relayPort !== undefined ? { relayPort } : {}) });
    };
    const timer = setTimeout(() => finish(undefined), HOLDER_START_TIMEOUT_MS);
    holder.on("error", () => finish(undefined));
    holder.on("exit", () => {
      if (started) onEnded();
      finish(undefined);
    });
    const infoPipe = holder.stdio[3] as NodeJS.ReadableStream & { unref?(): void };
    infoPipe.on("data", (chunk: Buffer) => {
      info += chunk.toString("utf8");
      const found = /"child-pid":\s*(\d+)/.exec(info)?.[1];
      if (found) pid = Number(found);
      ready();
    });
    infoPipe.on("error", () => finish(undefined));
    const stdout = holder.stdout as (NodeJS.ReadableStream & { unref?(): void }) | null;
    stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const port = /^(\d+)\n/.exec(output)?.[1];
      if (port) relayPort = Number(port);
      ready();
    });
    // The holder lives as long as Bowline, without keeping it running.
    holder.unref();
    infoPipe.unref?.();
    stdout?.unref?.();
  });
}

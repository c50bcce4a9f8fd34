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
 */
import { spawn } from "node:child_process";
import { findProgram } from "./sandbox.js";

export interface SharedNetwork {
  nsenterPath: string;
  /** A process inside the namespace (the holder), as nsenter's target. */
  pid: number;
}

const HOLDER_START_TIMEOUT_MS = 5000;

let starting: Promise<SharedNetwork | undefined> | undefined;
let ready: SharedNetwork | undefined;

/** Whether commands can share a network namespace here (nsenter is installed). */
export function canShareNetwork(searchPath = process.env.PATH ?? ""): boolean {
  return findProgram("nsenter", searchPath) !== undefined;
}

/** The shared namespace once started (see `startSharedNetwork`); undefined before or without one. */
export function sharedNetwork(): SharedNetwork | undefined {
  return ready;
}

/**
 * Starts the holder once per process; resolves undefined (commands fall back) when it cannot
 * start. A holder that ends after it started (killed from outside) is replaced by the next call.
 */
export function startSharedNetwork(bwrapPath: string): Promise<SharedNetwork | undefined> {
  starting ??= startHolder(bwrapPath, (gone) => {
    if (ready !== gone) return;
    ready = undefined;
    starting = undefined;
  }).then((network) => {
    ready = network;
    return network;
  });
  return starting;
}

function startHolder(
  bwrapPath: string,
  onEnded: (network: SharedNetwork) => void,
): Promise<SharedNetwork | undefined> {
  const nsenterPath = findProgram("nsenter", process.env.PATH ?? "");
  if (!nsenterPath) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const args = ["--unshare-user", "--unshare-net", "--die-with-parent", "--ro-bind", "/", "/"];
    const holder = spawn(bwrapPath, [...args, "--info-fd", "3", "--", "sleep", "infinity"], {
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    });
    let info = "";
    let settled = false;
    let started: SharedNetwork | undefined;
    const finish = (network: SharedNetwork | undefined) => {
      if (settled) return;
      settled = true;
      started = network;
      clearTimeout(timer);
      if (!network) holder.kill("SIGKILL");
      resolve(network);
    };
    const timer = setTimeout(() => finish(undefined), HOLDER_START_TIMEOUT_MS);
    holder.on("error", () => finish(undefined));
    holder.on("exit", () => {
      if (started) onEnded(started);
      finish(undefined);
    });
    const infoPipe = holder.stdio[3] as NodeJS.ReadableStream & { unref?(): void };
    infoPipe.on("data", (chunk: Buffer) => {
      info += chunk.toString("utf8");
      const pid = /"child-pid":\s*(\d+)/.exec(info)?.[1];
      if (pid) finish({ nsenterPath, pid: Number(pid) });
    });
    infoPipe.on("error", () => finish(undefined));
    // The holder lives as long as Bowline, without keeping it running.
    holder.unref();
    infoPipe.unref?.();
  });
}

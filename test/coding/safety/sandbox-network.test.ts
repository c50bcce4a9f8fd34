/**
 * The network namespace sandboxed commands share (without network): one holder per process,
 * started once, and replaced when something ends it.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAllowedHost } from "../../../src/coding/safety/allowed-hosts.js";
import { detectSandbox } from "../../../src/coding/safety/sandbox.js";
import {
  canShareNetwork,
  sharedNetwork,
  startSharedNetwork,
} from "../../../src/coding/safety/sandbox-network.js";

const probe = await detectSandbox();
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(probe.available && canShareNetwork())("the shared sandbox network", () => {
  it("starts one holder however often it is asked, and a new one after the first is killed", async () => {
    const bwrap = probe.available ? probe.bwrapPath : "";
    const [first, again] = await Promise.all([startSharedNetwork(bwrap), startSharedNetwork(bwrap)]);
    expect(first).toBeDefined();
    expect(again).toBe(first);
    expect(sharedNetwork()).toBe(first);
    expect(alive(first!.pid)).toBe(true);
    process.kill(first!.pid, "SIGKILL");
    for (let i = 0; i < 100 && sharedNetwork() !== undefined; i++)
      await new Promise((r) => setTimeout(r, 20));
    // Commands meanwhile fall back to a namespace each; the next start replaces the holder.
    expect(sharedNetwork()).toBeUndefined();
    const second = await startSharedNetwork(bwrap);
    expect(second).toBeDefined();
    expect(second!.pid).not.toBe(first!.pid);
    expect(alive(second!.pid)).toBe(true);
  });

  it("with allowed hosts, the holder is a relay to the proxy; killed, it is replaced and its proxy closed", async () => {
    const bwrap = probe.available ? probe.bwrapPath : "";
    const options = {
      allowedHosts: [parseAllowedHost("relay.test")],
      lookup: async () => "127.0.0.1",
      allowLocal: true,
    };
    const first = await startSharedNetwork(bwrap, options);
    expect(first?.proxy?.port).toBeGreaterThan(0);
    // A namespace of its own: the plain one (no hosts) is another.
    expect(sharedNetwork()).not.toBe(first);
    expect(sharedNetwork(options)).toBe(first);
    const socketPath = first!.proxy!.hosts.socketPath;
    expect(fs.existsSync(socketPath)).toBe(true);
    process.kill(first!.pid, "SIGKILL");
    for (let i = 0; i < 100 && sharedNetwork(options) !== undefined; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(sharedNetwork(options)).toBeUndefined();
    expect(fs.existsSync(socketPath)).toBe(false);
    const second = await startSharedNetwork(bwrap, options);
    expect(second?.proxy?.port).toBeGreaterThan(0);
    expect(second!.pid).not.toBe(first!.pid);
    expect(fs.existsSync(second!.proxy!.hosts.socketPath)).toBe(true);
  });
});

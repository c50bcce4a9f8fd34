/**
 * The sandbox probe's last answer, kept on disk so that a start need not spawn bubblewrap before
 * its first model request (loading child_process and spawning cost the CLI ~20 ms of its start).
 * The answer is keyed by what decides it that a start can read cheaply: the bwrap binary (path,
 * size, modification time), the kernel release and the user. It is checked again after the
 * first request, so a change the key cannot see (a sysctl turning user namespaces off) reaches
 * the next start. A stale "available" stays safe: commands then fail with bwrap's own error,
 * reported as a sandbox failure, and nothing runs outside the sandbox unasked.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxAvailability } from "./sandbox.js";

interface Stored {
  key: string;
  result: SandboxAvailability;
}

/** `$XDG_CACHE_HOME/bowline/sandbox-probe.json` (default `~/.cache/...`). */
export function probeCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(root, "bowline", "sandbox-probe.json");
}

/** What the answer for `bwrapPath` depends on; undefined when the binary cannot be read. */
export function probeKey(bwrapPath: string): string | undefined {
  try {
    const { size, mtimeMs } = fs.statSync(bwrapPath);
    return JSON.stringify([bwrapPath, size, Math.round(mtimeMs), os.release(), process.getuid?.()]);
  } catch {
    return undefined;
  }
}

/** The remembered answer for `key`, or undefined (none, another key, unreadable). */
export function readCachedProbe(file: string, key: string): SandboxAvailability | undefined {
  try {
    const stored = JSON.parse(fs.readFileSync(file, "utf8")) as Stored;
    return stored.key === key ? stored.result : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers an answer; a cache that cannot be written only costs the next start a probe. */
export function writeCachedProbe(file: string, key: string, result: SandboxAvailability): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify({ key, result } satisfies Stored));
    fs.renameSync(temp, file);
  } catch {
    // A read-only home or a full disk.
  }
}

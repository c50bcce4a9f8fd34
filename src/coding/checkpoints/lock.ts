import { link, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CheckpointGitError } from "./types.js";

/**
 * One writer at a time per store: tasks of one process queue in memory, tasks of different
 * processes take `<store>/lock` (created exclusively, holding the owner's pid). A lock whose
 * owner is gone, or which has not been refreshed for `STALE_MS`, is taken over.
 */
const queues = new Map<string, Promise<unknown>>();
const HEARTBEAT_MS = 20_000;
const STALE_MS = 90_000;
const POLL_MS = 40;
const OWNERLESS_STALE_MS = 2_000;

export async function withStoreLock<T>(
  storeDir: string,
  timeoutMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const previous = queues.get(storeDir) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => withFileLock(storeDir, timeoutMs, work));
  const tail = run.catch(() => undefined);
  queues.set(storeDir, tail);
  void tail.then(() => {
    if (queues.get(storeDir) === tail) queues.delete(storeDir);
  });
  return run;
}

async function withFileLock<T>(storeDir: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const path = join(storeDir, "lock");
  await acquire(path, timeoutMs);
  const heartbeat = setInterval(() => {
    const now = new Date();
    // Best effort: a missed beat only brings the lock closer to being thought stale.
    utimes(path, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    await clearStaleGitLocks(storeDir);
    return await work();
  } finally {
    clearInterval(heartbeat);
    await rm(path, { force: true });
  }
}

async function acquire(path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await tryCreate(path)) return;
    if (await isStale(path)) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new CheckpointGitError(
        `Another task has held the checkpoint store ${path} for over ${Math.round(timeoutMs / 1000)} s.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Creates the lock holding our pid in one step (a hard link of a file already written), so a
 * process killed while taking the lock never leaves one without an owner to check.
 */
async function tryCreate(path: string): Promise<boolean> {
  const mine = `${path}.${process.pid}`;
  await writeFile(mine, `${process.pid}\n`);
  try {
    await link(mine, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  } finally {
    await rm(mine, { force: true });
  }
}

async function isStale(path: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const pid = Number.parseInt(text, 10);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    // A lock without an owner (left by an older Bowline killed while taking it).
    if (!Number.isInteger(pid) && Date.now() - info.mtimeMs > OWNERLESS_STALE_MS) return true;
    return Number.isInteger(pid) && pid !== process.pid && !processAlive(pid);
  } catch {
    return false; // released between our attempts: try again
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Only lock holders run git in the store, so a git lock file found while holding ours was left
 * by a git process that died (a killed Bowline): removing it lets the store work again.
 */
async function clearStaleGitLocks(storeDir: string): Promise<void> {
  const gitDir = join(storeDir, "git");
  await Promise.all(["index.lock", "HEAD.lock"].map((name) => rm(join(gitDir, name), { force: true })));
}

import {
  type Dirent,
  type FSWatcher,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  watch,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runGit, type ShadowGit } from "./git.js";
import { readHead } from "./scan.js";
import { createGitServices, type GitServices } from "./services.js";

/**
 * Which workspace paths changed between two checkpoints, learnt from the kernel (inotify, one
 * watch per folder, through `fs.watch`) instead of looking at every file. Node's recursive
 * `fs.watch` is no help on Linux in Node 20: it watches every file and every ignored folder
 * (node_modules included), set up synchronously. Here only folders git would look into are
 * watched, and every doubt becomes a full scan:
 *
 * - the first checkpoint, and any after a doubt, scan everything (after the watches are set up,
 *   so that scan is a sound base for the next);
 * - before handing over the changed paths, a cookie file written in the store and seen come back
 *   proves that every event queued before it was delivered (one inotify queue per process);
 * - libuv drops the kernel's queue-overflow notice, so a burst of events between two checkpoints
 *   (half the kernel's queue) is taken for a possible overflow;
 * - a `.gitignore` or `.git` changing, a name that is not UTF-8, a watch failing, too many
 *   changes or a changed exclusion list mean a full scan (and the watches are checked again);
 * - too many folders, a file system that does not report changes reliably (network and FUSE
 *   mounts), or another platform turn watching off: every checkpoint is then a full scan.
 *
 * Changed paths are reported relative to the workspace; a path ending in `/` is a folder that
 * appeared (or was replaced): whatever the last checkpoint had below it may differ.
 */
export interface ChangeTracker {
  /** Folders watched, why watching is off (if it is), and how the snapshots so far were taken. */
  status(): WatchStatus;
  /**
   * What changed since the last settled take. `rules` is the exclusion text in force: a change
   * of it means a full scan. Call with the store lock held, then `settle` once recorded.
   */
  take(rules: string): Promise<Take>;
  /**
   * After a snapshot from the last take: the tree it recorded (the next take's base), or undefined
   * when it failed; `scan` says how it was taken (`changed paths`, or why everything was scanned).
   */
  settle(base: TrackerBase | undefined, scan: string): void;
  close(): void;
}

export interface WatchStatus {
  watching: number;
  off?: string;
  /** Snapshots that looked only at the changed paths, and those that scanned everything. */
  incremental: number;
  full: number;
  /** How the last snapshot was taken. */
  last?: string;
}

/** The workspace as the last snapshot recorded it. */
export interface TrackerBase {
  tree: string;
  /** Files in `tree`. */
  fileCount: number;
  /** The exclusion text it was recorded under. */
  rules: string;
}

export type Take =
  /** Scan everything; `trusted` when the watches were complete, so the scan can be a base. */
  { full: true; reason: string; trusted: boolean } | { full: false; paths: string[]; base: TrackerBase };

export interface WatchOptions {
  /** Folders watched at most; past it, watching is off (default 20,000). */
  maxFolders?: number;
  /** Events between two checkpoints taken for a possible overflow (default half the kernel's queue). */
  maxEvents?: number;
  /** Changed paths remembered at most; past it, a full scan (default 5,000). */
  maxPaths?: number;
}

/** How `settle` names a snapshot of the changed paths only. */
export const INCREMENTAL = "changed paths";
const COOKIE_TIMEOUT_MS = 2_000;
/** Folders read between two turns of the event loop while setting up watches. */
const WALK_BATCH = 64;

/** File systems whose changes the kernel reports to inotify: local disks, tmpfs, overlays. */
const LOCAL_FILE_SYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
  0xca451a4e, // bcachefs
  0x52654973, // reiserfs
  0x3153464a, // jfs
  0xf15f, // ecryptfs
]);

/** Why a workspace cannot be watched, if it cannot. */
function unwatchableReason(workspace: string): string | undefined {
  if (process.platform !== "linux") return `watching is implemented for Linux only (${process.platform})`;
  try {
    const type = Number(statfsSync(workspace).type);
    if (!LOCAL_FILE_SYSTEMS.has(type))
      return `its file system (0x${type.toString(16)}) may not report changes`;
  } catch (error) {
    return `its file system could not be identified: ${(error as Error).message}`;
  }
  return undefined;
}

export function createChangeTracker(
  git: ShadowGit,
  services: GitServices,
  options: WatchOptions = {},
): ChangeTracker {
  const root = git.workspace;
  const maxFolders = options.maxFolders ?? 20_000;
  const maxEvents = options.maxEvents ?? queueLimit() / 2;
  const maxPaths = options.maxPaths ?? 5_000;
  const watchers = new Map<string, FSWatcher>();
  let dirty = new Set<string>();
  let events = 0;
  let doubt: string | undefined;
  let off = unwatchableReason(root);
  let base: TrackerBase | undefined;
  const counts = { incremental: 0, full: 0, last: undefined as string | undefined };
  let trackedFolders = new Set<string>();
  /** Paths whose events may mean a folder appeared or went; checked one batch at a time. */
  const suspects = new Set<string>();
  let checking: Promise<void> | undefined;
  let cookies: CookieJar | undefined;
  try {
    if (!off) cookies = createCookieJar(join(git.storeDir, "watch"));
  } catch (error) {
    off = `file events could not be synchronised: ${(error as Error).message}`;
  }

  const distrust = (reason: string) => {
    doubt ??= reason;
  };
  const mark = (path: string) => {
    if (dirty.size >= maxPaths) distrust("too many changed paths");
    else dirty.add(path);
  };
  const turnOff = (reason: string) => {
    off ??= reason;
    for (const handle of watchers.values()) handle.close();
    watchers.clear();
    suspects.clear();
  };

  const onEvent = (folder: string, type: string, name: Buffer | string | null) => {
    if (off) return;
    events++;
    if (events > maxEvents) distrust("more file events than the kernel's queue is sure to hold");
    if (name === null || typeof name === "string") return distrust("a file event without a name");
    const text = name.toString("utf8");
    if (!Buffer.from(text, "utf8").equals(name)) return distrust("a file name that is not UTF-8");
    if (text === ".git") distrust("a repository appeared or went");
    if (text === ".gitignore") distrust("ignore rules changed");
    const path = folder === "" ? text : `${folder}/${text}`;
    mark(path);
    if (type === "rename") {
      suspects.add(path);
      checking ??= checkSuspects().finally(() => {
        checking = undefined;
      });
    }
  };

  /**
   * Watches `folder`, afresh even when it was watched: a folder deleted and made again may get the
   * same inode, and the old watch ended with the old folder.
   */
  const watchFolder = (folder: string): boolean => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
    if (watchers.size >= maxFolders) {
      turnOff(`the workspace has more than ${maxFolders.toLocaleString("en")} folders to watch`);
      return false;
    }
    try {
      const handle = watch(join(root, folder), { persistent: false, encoding: "buffer" }, (type, name) =>
        onEvent(folder, type, name),
      );
      handle.on("error", (error) => distrust(`watching ${folder || "."} failed: ${error.message}`));
      watchers.set(folder, handle);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return false; // gone: its parent's event says so
      turnOff(`a folder could not be watched: ${(error as Error).message}`);
      return false;
    }
  };

  const unwatchBelow = (path: string) => {
    if (!watchers.has(path)) return; // watched folders form a tree: nothing below is watched either
    for (const [folder, handle] of watchers) {
      if (folder === path || folder.startsWith(`${path}/`)) {
        handle.close();
        watchers.delete(folder);
      }
    }
  };

  /** Folders git would look into: not ignored, or holding files the last checkpoint tracks. */
  const wanted = async (folders: string[]): Promise<string[]> => {
    const ignored = await services.ignored(folders);
    return folders.filter((folder) => !ignored.has(folder) || trackedFolders.has(folder));
  };

  /**
   * Watches the folders from `start` down, each before it is read, so nothing created in it
   * afterwards is missed. With `found`, what is found is recorded as changed (a folder that
   * appeared between checkpoints); nested repositories are then a reason for a full scan.
   */
  const extend = async (start: string[], found: boolean) => {
    let level = start;
    while (level.length > 0 && !off) {
      const next: string[] = [];
      for (const [i, folder] of level.entries()) {
        if (i % WALK_BATCH === WALK_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
        if (off || !watchFolder(folder)) continue;
        const entries = readFolder(join(root, folder));
        if (folder !== "" && entries.some((entry) => entry.name === ".git")) {
          unwatchBelow(folder); // a nested repository: left out of checkpoints
          if (found) distrust("a repository appeared");
          continue;
        }
        if (found) mark(`${folder}/`);
        // The ignore rules read so far may not have seen it (see `GitServices.ignored`).
        if (found && entries.some((entry) => entry.name === ".gitignore")) distrust("ignore rules changed");
        for (const entry of entries) {
          const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
          if (entry.isDirectory()) {
            if (entry.name !== ".git") next.push(path);
          } else if (found) mark(path);
        }
      }
      level = next.length > 0 ? await wanted(next) : [];
    }
  };

  const checkSuspects = async () => {
    while (suspects.size > 0 && !off) {
      const batch = [...suspects];
      suspects.clear();
      const appeared: string[] = [];
      for (const path of batch) {
        // A folder's name came or went: whatever is there now is watched and looked at afresh.
        if (statOf(join(root, path))?.isDirectory()) appeared.push(path);
        else unwatchBelow(path);
      }
      try {
        const keep = new Set(appeared.length > 0 ? await wanted(appeared) : []);
        for (const path of appeared) if (!keep.has(path)) unwatchBelow(path);
        await extend([...keep], true);
      } catch (error) {
        distrust(`new folders could not be checked: ${(error as Error).message}`);
      }
    }
  };

  /** Sets every watch up again from the root; those of folders no longer there are dropped. */
  const rewalk = async () => {
    const head = await readHead(git.gitDir);
    trackedFolders = head ? await foldersOf(git, head) : new Set();
    const before = new Map(watchers);
    await extend([""], false);
    for (const [folder, handle] of before) {
      if (watchers.get(folder) !== handle) continue; // set up again (or dropped) meanwhile
      handle.close();
      watchers.delete(folder);
    }
  };

  /** A full scan follows: the changes so far do not matter, the watches must be complete before it. */
  const full = async (reason: string): Promise<Take> => {
    while (checking) await checking;
    dirty = new Set();
    events = 0;
    doubt = undefined;
    base = undefined;
    services.forgetIgnoreRules();
    try {
      await rewalk();
    } catch (error) {
      distrust(`watches could not be set up: ${(error as Error).message}`);
      return { full: true, reason, trusted: false };
    }
    return off ? { full: true, reason: off, trusted: false } : { full: true, reason, trusted: true };
  };

  return {
    status: () => ({
      watching: watchers.size,
      ...(off ? { off } : {}),
      incremental: counts.incremental,
      full: counts.full,
      ...(counts.last ? { last: counts.last } : {}),
    }),
    async take(rules) {
      if (off) return { full: true, reason: off, trusted: false };
      if (!base || doubt || base.rules !== rules) {
        return full(doubt ?? (base ? "the exclusions changed" : "no checkpoint to compare with"));
      }
      if (!(await cookies?.barrier())) distrust("file events did not arrive in time");
      while (checking) await checking;
      if (off) return { full: true, reason: off, trusted: false };
      if (doubt) return full(doubt);
      const paths = [...dirty];
      dirty = new Set();
      events = 0;
      return { full: false, paths, base };
    },
    settle(recorded, scan) {
      base = off ? undefined : recorded;
      counts.last = scan;
      if (scan === INCREMENTAL) counts.incremental++;
      else counts.full++;
    },
    close() {
      turnOff("closed");
      cookies?.close();
    },
  };
}

/**
 * Cookies written in a folder of the store that is watched through the same inotify queue as the
 * workspace: when one's event arrives, every event queued before it has been delivered.
 */
interface CookieJar {
  /** Whether a cookie's event came back in time. */
  barrier(): Promise<boolean>;
  close(): void;
}

function createCookieJar(folder: string): CookieJar {
  mkdirSync(folder, { recursive: true });
  const waiting = new Map<string, () => void>();
  let count = 0;
  const handle = watch(folder, { persistent: false }, (_type, name) => {
    const done = name === null ? undefined : waiting.get(String(name));
    if (done) done();
  });
  return {
    async barrier(): Promise<boolean> {
      const name = `${process.pid}-${++count}`;
      let timer: NodeJS.Timeout | undefined;
      const seen = new Promise<boolean>((resolve) => {
        waiting.set(name, () => resolve(true));
        timer = setTimeout(() => resolve(false), COOKIE_TIMEOUT_MS);
      });
      try {
        writeFileSync(join(folder, name), "");
        return await seen;
      } catch {
        return false; // the store's folder is gone: no proof, so a full scan
      } finally {
        clearTimeout(timer);
        waiting.delete(name);
        rmSync(join(folder, name), { force: true });
      }
    },
    close: () => handle.close(),
  };
}

/** Folders holding files in a checkpoint's tree. */
async function foldersOf(git: ShadowGit, commit: string): Promise<Set<string>> {
  const { stdout } = await runGit(git, ["ls-tree", "-r", "-d", "-z", "--name-only", commit]);
  return new Set(stdout.split("\0").filter((path) => path !== ""));
}

function readFolder(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return []; // gone or unreadable: git cannot read it either
  }
}

function statOf(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The kernel's inotify queue length (events past it are dropped). */
function queueLimit(): number {
  try {
    const text = readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8");
    return Number.parseInt(text, 10) || 16_384;
  } catch {
    return 16_384;
  }
}

interface Watch {
  tracker: ChangeTracker;
  services: GitServices;
}

/** One tracker (and its git processes) per store and process, shared by the tasks that use it. */
const watches = new Map<string, Watch & { users: number }>();

/** The store's tracker and git processes, made on first use; `release` ends them after their last user. */
export function acquireWatch(git: ShadowGit, options?: WatchOptions): Watch & { release(): void } {
  let shared = watches.get(git.storeDir);
  if (!shared) {
    const services = createGitServices(git);
    shared = { tracker: createChangeTracker(git, services, options), services, users: 0 };
    watches.set(git.storeDir, shared);
  }
  shared.users++;
  const current = shared;
  let released = false;
  return {
    tracker: current.tracker,
    services: current.services,
    release() {
      if (released) return;
      released = true;
      if (--current.users > 0) return;
      current.tracker.close();
      current.services.close();
      if (watches.get(git.storeDir) === current) watches.delete(git.storeDir);
    },
  };
}

import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Checkpoint } from "../../protocol/checkpoint-commands.js";
import { deleteCheckpoints, listCheckpoints } from "./commits.js";
import { runGit, type ShadowGit } from "./git.js";
import { type StoreMeta, writeMeta } from "./meta.js";
import { CheckpointGitError, type PruneOptions } from "./types.js";

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_PRUNE: Required<PruneOptions> = {
  maxAgeMs: 30 * DAY_MS,
  maxPerTask: 100,
  maxTotal: 1_000,
};
/** How often the store is repacked. */
export const GC_INTERVAL_MS = DAY_MS;

/**
 * Deletes checkpoints older than the age limit and beyond the newest `maxPerTask` of each task
 * and `maxTotal` overall. Their files go at the next gc. Call with the store lock held.
 */
export async function pruneCheckpoints(
  git: ShadowGit,
  meta: StoreMeta,
  options: PruneOptions = {},
  now = Date.now(),
): Promise<Checkpoint[]> {
  const limits = { ...DEFAULT_PRUNE, ...options };
  const newestFirst = (await listCheckpoints(git)).map((stored) => stored.checkpoint).reverse();
  const perTask = new Map<string, number>();
  const doomed = newestFirst.filter((checkpoint, index) => {
    const rank = (perTask.get(checkpoint.taskId) ?? 0) + 1;
    perTask.set(checkpoint.taskId, rank);
    return (
      now - checkpoint.createdAt > limits.maxAgeMs || rank > limits.maxPerTask || index >= limits.maxTotal
    );
  });
  if (doomed.length === 0) return [];
  await deleteCheckpoints(git, doomed);
  const gone = new Set(doomed.map((checkpoint) => checkpoint.id));
  for (const [taskId, tip] of Object.entries(meta.tips)) {
    if (gone.has(tip.checkpoint.id)) delete meta.tips[taskId];
  }
  await writeMeta(git.storeDir, meta);
  return doomed.reverse();
}

/**
 * Repacks the store and drops what no checkpoint needs. Objects younger than an hour are kept
 * even when unreferenced: another task may be about to commit them, and gc runs beside the
 * checkpoint operations rather than under their lock (it is slow on a big store).
 */
export async function collectGarbage(git: ShadowGit): Promise<void> {
  const result = await runGit(git, ["gc", "--quiet", "--prune=1.hour.ago"], {
    background: true,
    okCodes: [128],
  });
  // Exit 128 is also git's answer when another gc of this store is running: that one does the job.
  if (result.code !== 0 && !result.stderr.includes("gc is already running")) {
    throw new CheckpointGitError(`git gc failed in the checkpoint store: ${result.stderr.trim()}`);
  }
}

/** Bytes the store takes: loose objects, packs, garbage and the index. */
export async function storeSize(git: ShadowGit): Promise<number> {
  const { stdout } = await runGit(git, ["--no-optional-locks", "count-objects", "-v"]);
  let kib = 0;
  for (const line of stdout.split("\n")) {
    const match = /^(size|size-pack|size-garbage): (\d+)$/.exec(line.trim());
    if (match) kib += Number(match[2]);
  }
  const index = await stat(join(git.gitDir, "index")).then(
    (info) => info.size,
    () => 0,
  );
  return kib * 1024 + index;
}

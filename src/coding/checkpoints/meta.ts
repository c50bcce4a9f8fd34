import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { StoredCheckpoint } from "./commits.js";
import type { CheckpointLimits } from "./types.js";

/** What the engine remembers about a store beside the repository itself (`<store>/meta.json`). */
export interface StoreMeta {
  version: 1;
  /** The workspace this store belongs to (two paths with the same hash are told apart by it). */
  workspace: string;
  /** Nested repositories found in the workspace, left out of checkpoints. */
  nestedRepos: string[];
  /** Files over the size limit, left out of checkpoints. */
  largeFiles: string[];
  /** Store size at the last measurement plus the bytes hashed since (an upper bound). */
  storeBytes: number;
  lastGcAt?: number;
  /** Each task's latest checkpoint (saves a `for-each-ref` per step). */
  tips: Record<string, StoredCheckpoint>;
  /** Set when a limit was exceeded: checkpoints stay off until the limits or exclusions change. */
  disabled?: { message: string; limits: CheckpointLimits; exclude: string[] };
}

const FILE = "meta.json";

export function newMeta(workspace: string): StoreMeta {
  return { version: 1, workspace, nestedRepos: [], largeFiles: [], storeBytes: 0, tips: {} };
}

export async function readMeta(storeDir: string): Promise<StoreMeta | undefined> {
  try {
    const meta = JSON.parse(await readFile(join(storeDir, FILE), "utf8")) as StoreMeta;
    return { ...newMeta(meta.workspace), ...meta };
  } catch {
    return undefined;
  }
}

/** Written to a temporary file then renamed, so a crash never leaves half a file. */
export async function writeMeta(storeDir: string, meta: StoreMeta): Promise<void> {
  const path = join(storeDir, FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(meta, null, 2)}\n`);
  await rename(temporary, path);
}

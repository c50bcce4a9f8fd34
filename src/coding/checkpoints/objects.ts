import { createHash } from "node:crypto";
import { CheckpointGitError } from "./types.js";

/**
 * Tree objects of the shadow repository as the incremental snapshot edits them: a checkpoint
 * after a few changes rewrites only the trees on the changed paths, without the whole index.
 */

/** One entry of a tree: its mode as git writes it (`100644`, `100755`, `120000`, `40000`, `160000`) and object id. */
export interface TreeEntry {
  mode: string;
  oid: string;
}

export const TREE_MODE = "40000";
export const isTree = (entry: TreeEntry | undefined): boolean => entry?.mode === TREE_MODE;

/**
 * A tree's entries by name, or undefined when a name is not UTF-8 (the incremental snapshot
 * only handles names it can compare with what the file system reports).
 */
export function parseTree(content: Buffer, oidBytes: number): Map<string, TreeEntry> | undefined {
  const entries = new Map<string, TreeEntry>();
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > content.length) {
      throw new CheckpointGitError("A tree of the checkpoint store could not be read.");
    }
    const nameBytes = content.subarray(space + 1, nul);
    const name = nameBytes.toString("utf8");
    if (!Buffer.from(name, "utf8").equals(nameBytes)) return undefined;
    const mode = content.toString("latin1", at, space);
    entries.set(name, { mode, oid: content.toString("hex", nul + 1, nul + 1 + oidBytes) });
    at = nul + 1 + oidBytes;
  }
  return entries;
}

/** A tree's content as git stores it: entries sorted with each tree's name compared as `name/`. */
export function serializeTree(entries: Map<string, TreeEntry>): Buffer {
  const sorted = [...entries].map(([name, entry]) => ({
    name: Buffer.from(name, "utf8"),
    key: Buffer.from(isTree(entry) ? `${name}/` : name, "utf8"),
    entry,
  }));
  sorted.sort((a, b) => Buffer.compare(a.key, b.key));
  const parts: Buffer[] = [];
  for (const { name, entry } of sorted) {
    parts.push(
      Buffer.from(`${entry.mode} `, "latin1"),
      name,
      Buffer.from([0]),
      Buffer.from(entry.oid, "hex"),
    );
  }
  return Buffer.concat(parts);
}

/** The id git gives a tree with this content: SHA-1, or SHA-256 in a repository that uses it. */
export function treeId(content: Buffer, oidHexLength: number): string {
  const hash = createHash(oidHexLength === 64 ? "sha256" : "sha1");
  hash.update(`tree ${content.length}\0`);
  hash.update(content);
  return hash.digest("hex");
}

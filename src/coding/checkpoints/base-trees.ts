import { isTree, parseTree, type TreeEntry } from "./objects.js";
import type { GitServices } from "./services.js";

/** The incremental snapshot cannot tell: a full scan must. */
export class NeedsFullScan extends Error {}

type Tree = Map<string, TreeEntry>;

/** The base tree's folders, read on demand, a level at a time. */
export class BaseTrees {
  private readonly cache = new Map<string, Tree | null>();
  private readonly oidLength: number;

  constructor(
    private readonly services: GitServices,
    private readonly root: string,
  ) {
    this.oidLength = root.length;
  }

  get oidHexLength(): number {
    return this.oidLength;
  }

  /** A loaded folder's entries; null when the base has no such folder. */
  entries(folder: string): Tree | null {
    const tree = this.cache.get(folder);
    if (tree === undefined) throw new NeedsFullScan(`folder ${folder} was not read`);
    return tree;
  }

  /** The base's entry at `path`, its folder loaded. */
  entry(path: string): TreeEntry | undefined {
    return this.entries(parentOf(path))?.get(nameOf(path));
  }

  /** Reads the given folders and every folder above them. */
  async load(folders: Iterable<string>): Promise<void> {
    const wanted = new Set<string>([""]);
    for (const folder of folders) for (let f = folder; f !== ""; f = parentOf(f)) wanted.add(f);
    const byDepth = new Map<number, string[]>();
    for (const folder of wanted) {
      if (this.cache.has(folder)) continue;
      const depth = folder === "" ? 0 : folder.split("/").length;
      byDepth.set(depth, [...(byDepth.get(depth) ?? []), folder]);
    }
    for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
      const asked: Array<{ folder: string; oid: string }> = [];
      for (const folder of byDepth.get(depth)!) {
        const oid = folder === "" ? this.root : this.treeOid(folder);
        if (oid) asked.push({ folder, oid });
        else this.cache.set(folder, null);
      }
      const objects = await this.services.readObjects(asked.map((a) => a.oid));
      for (const [i, { folder }] of asked.entries()) {
        const object = objects[i];
        if (object?.type !== "tree") throw new NeedsFullScan(`the base tree of ${folder || "."} is missing`);
        const tree = parseTree(object.content, this.oidLength / 2);
        if (!tree) throw new NeedsFullScan(`a name in ${folder || "."} is not UTF-8`);
        if ([...tree.values()].some((entry) => entry.mode === "160000")) {
          throw new NeedsFullScan(`${folder || "."} holds a submodule`);
        }
        this.cache.set(folder, tree);
      }
    }
  }

  /** Every file of the base at or below the given paths (each once). */
  async filesBelow(paths: string[]): Promise<string[]> {
    const files: string[] = [];
    let folders: string[] = [];
    const given = new Set(paths);
    const covered = (path: string) => {
      for (let p = parentOf(path); p !== ""; p = parentOf(p)) if (given.has(p)) return true;
      return false;
    };
    for (const path of given) {
      if (covered(path)) continue;
      if (isTree(this.entry(path))) folders.push(path);
      else if (this.entry(path)) files.push(path);
    }
    while (folders.length > 0) {
      await this.load(folders);
      const next: string[] = [];
      for (const folder of folders) {
        for (const [name, entry] of this.entries(folder) ?? []) {
          (isTree(entry) ? next : files).push(`${folder}/${name}`);
        }
      }
      folders = next;
    }
    return files;
  }

  private treeOid(folder: string): string | undefined {
    const parent = this.cache.get(parentOf(folder));
    const entry = parent?.get(nameOf(folder));
    return isTree(entry) ? entry!.oid : undefined;
  }
}

export const parentOf = (path: string) => {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
};
export const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

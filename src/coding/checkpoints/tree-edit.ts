import { type BaseTrees, NeedsFullScan } from "./base-trees.js";
import { isTree, serializeTree, TREE_MODE, type TreeEntry, treeId } from "./objects.js";
import type { GitServices } from "./services.js";

interface EditNode {
  /** A file recorded here (an entry), or whatever the base had here removed (null). */
  edit?: TreeEntry | null;
  children: Map<string, EditNode>;
}

/**
 * The base tree with `edits` applied (path -> new file entry, or null to remove a file or folder):
 * the trees on the edited paths are rewritten, children first, in one `git mktree`, and every
 * other tree is shared with the base. Folders left empty disappear, as git has no empty trees.
 */
export async function buildTree(
  services: GitServices,
  trees: BaseTrees,
  edits: Map<string, TreeEntry | null>,
): Promise<string> {
  const top: EditNode = { children: new Map() };
  for (const [path, edit] of edits) {
    let node = top;
    for (const name of path.split("/")) {
      const next = node.children.get(name) ?? { children: new Map() };
      node.children.set(name, next);
      node = next;
    }
    node.edit = edit;
  }
  const written: Array<{ oid: string; entries: Map<string, TreeEntry> }> = [];
  const build = (folder: string, node: EditNode, fromBase: boolean): string | undefined => {
    const entries = new Map(fromBase ? (trees.entries(folder) ?? []) : []);
    for (const [name, child] of node.children) {
      const path = folder === "" ? name : `${folder}/${name}`;
      if (child.edit) {
        entries.set(name, child.edit); // a file now: whatever was below that path is gone
        continue;
      }
      if (child.edit === null) entries.delete(name);
      if (child.children.size === 0) continue;
      const before = entries.get(name);
      if (before && !isTree(before)) throw new NeedsFullScan(`${path} is a file in the base`);
      const oid = build(path, child, before !== undefined);
      if (oid) entries.set(name, { mode: TREE_MODE, oid });
      else entries.delete(name);
    }
    if (entries.size === 0) return undefined;
    const oid = treeId(serializeTree(entries), trees.oidHexLength);
    written.push({ oid, entries });
    return oid;
  };
  const root = build("", top, true) ?? treeId(Buffer.alloc(0), trees.oidHexLength);
  await services.writeTrees(written);
  return root;
}

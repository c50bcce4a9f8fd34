import type { FileDiff } from "../../protocol/checkpoint-commands.js";
import { statusOf } from "./commits.js";
import { runGit, type ShadowGit, withoutIndex } from "./git.js";

export interface DiffOptions {
  /** Include each file's unified diff (default true). */
  patch?: boolean;
  /** Lines of context around changes (default 3). */
  context?: number;
}

/**
 * Per-file differences between two tree-ishes of the shadow repository: status and line counts
 * from one `diff-tree --raw --numstat`, and the unified diffs from one `diff-tree -p`, split at
 * their `diff --git` headers (git prints both lists in the same path order).
 */
export async function diffTrees(
  git: ShadowGit,
  from: string,
  to: string,
  options: DiffOptions = {},
): Promise<FileDiff[]> {
  const base = ["--no-optional-locks", "diff-tree", "-r", "--no-renames"];
  const env = withoutIndex(git);
  const { stdout } = await runGit(git, [...base, "-z", "--raw", "--numstat", from, to], { env });
  const files = parseRawNumstat(stdout);
  if (options.patch !== false && files.length > 0) {
    const unified = `-U${options.context ?? 3}`;
    const patch = await runGit(git, [...base, "-p", "--no-color", unified, from, to], { env });
    const patches = splitPatch(patch.stdout);
    if (patches.length === files.length) {
      for (const [i, file] of files.entries()) file.patch = patches[i];
    }
  }
  return files;
}

/**
 * With `-z`, a raw record is `:modes ids STATUS` then the path; a numstat record is
 * `added<TAB>removed<TAB>path` (`-` counts for binary files). Raw records come first.
 */
export function parseRawNumstat(output: string): FileDiff[] {
  const fields = output.split("\0");
  const files: FileDiff[] = [];
  const byPath = new Map<string, FileDiff>();
  let i = 0;
  for (; i < fields.length && fields[i]!.startsWith(":"); i += 2) {
    const letter = fields[i]!.split(" ").at(-1) ?? "M";
    const file: FileDiff = {
      path: fields[i + 1]!,
      status: statusOf(letter),
      added: 0,
      removed: 0,
      binary: false,
    };
    files.push(file);
    byPath.set(file.path, file);
  }
  for (; i < fields.length; i++) {
    const match = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(fields[i]!);
    const file = match ? byPath.get(match[3]!) : undefined;
    if (!match || !file) continue;
    file.binary = match[1] === "-";
    file.added = file.binary ? 0 : Number(match[1]);
    file.removed = file.binary ? 0 : Number(match[2]);
  }
  return files;
}

/** One patch per file, each starting at its `diff --git` line. */
export function splitPatch(text: string): string[] {
  if (text.length === 0) return [];
  const starts: number[] = [];
  if (text.startsWith("diff --git ")) starts.push(0);
  for (let at = text.indexOf("\ndiff --git "); at >= 0; at = text.indexOf("\ndiff --git ", at + 1)) {
    starts.push(at + 1);
  }
  return starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
}

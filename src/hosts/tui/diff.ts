import type { StyledLine } from "./store.js";

type Op = { type: " " | "+" | "-"; text: string };

/** Above this many cells the middle of a change is shown as removed-then-added. */
const MAX_TABLE_CELLS = 4_000_000;
const CONTEXT = 3;

/**
 * A unified diff of two texts, as lines marked add/remove/hunk/plain (so the marks read without
 * colour). Line-based: the common head and tail are trimmed, the middle compared by longest
 * common subsequence, bounded in memory for large rewrites.
 */
export function unifiedDiff(before: string, after: string, path: string): StyledLine[] {
  const ops = diffLines(splitLines(before), splitLines(after));
  if (!ops.some((op) => op.type !== " ")) return [];
  return [
    { kind: "hunk", text: `--- ${before === "" ? "/dev/null" : `a/${path}`}` },
    { kind: "hunk", text: `+++ b/${path}` },
    ...hunks(ops),
  ];
}

/** The `+`/`-` counts of a diff made by `unifiedDiff`. */
export function countChanges(lines: StyledLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === "add") added++;
    else if (line.kind === "remove") removed++;
  }
  return { added, removed };
}

export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export function diffLines(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const same = (lines: string[]) => lines.map((text): Op => ({ type: " ", text }));
  return [...same(a.slice(0, head)), ...middle(midA, midB), ...same(a.slice(a.length - tail))];
}

function middle(a: string[], b: string[]): Op[] {
  const removed = a.map((text): Op => ({ type: "-", text }));
  const added = b.map((text): Op => ({ type: "+", text }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_TABLE_CELLS)
    return [...removed, ...added];
  // lcs[i][j]: common subsequence length of a[i..] and b[j..], one flat table.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ type: " ", text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) ops.push({ type: "-", text: a[i++]! });
    else ops.push({ type: "+", text: b[j++]! });
  }
  while (i < a.length) ops.push({ type: "-", text: a[i++]! });
  while (j < b.length) ops.push({ type: "+", text: b[j++]! });
  return ops;
}

/** Groups changes with three lines of context around each, under `@@ -a,n +b,m @@` headers. */
function hunks(ops: Op[]): StyledLine[] {
  const out: StyledLine[] = [];
  const changed = ops.map((op, index) => (op.type === " " ? -1 : index)).filter((index) => index >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - CONTEXT);
    let end = changed[k]!;
    while (k < changed.length && changed[k]! - end <= 2 * CONTEXT) end = changed[k++]!;
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const before = ops.slice(0, start);
    const oldStart = before.filter((op) => op.type !== "+").length + 1;
    const newStart = before.filter((op) => op.type !== "-").length + 1;
    const body = ops.slice(start, stop);
    const oldCount = body.filter((op) => op.type !== "+").length;
    const newCount = body.filter((op) => op.type !== "-").length;
    out.push({ kind: "hunk", text: `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@` });
    for (const op of body)
      out.push({
        kind: op.type === "+" ? "add" : op.type === "-" ? "remove" : "plain",
        text: `${op.type}${op.text}`,
      });
  }
  return out;
}

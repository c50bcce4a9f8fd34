import { type IndentShift, indentWidth, isBlank, reindent } from "./indentation.js";

/**
 * Turning a model's edit (old lines -> new lines) into new file lines when the old lines matched
 * the file only loosely: lines the model kept come from the file as they are, lines it removed are
 * removed, lines it added are re-indented to the file, and file lines its old text left out stay.
 */

/** One step from the model's old lines to its new lines. `s` indexes the old lines. */
export type EditOp =
  | { type: "keep"; s: number }
  | { type: "delete"; s: number }
  | { type: "insert"; text: string };

/** Above this many cells the line diff is skipped: everything old is deleted, everything new inserted. */
const MAX_DIFF_CELLS = 4_000_000;

/** A shortest edit script from `before` to `after` (longest common subsequence of equal lines). */
export function diffLines(before: readonly string[], after: readonly string[]): EditOp[] {
  const n = before.length;
  const m = after.length;
  if (n * m > MAX_DIFF_CELLS) {
    return [
      ...before.map((_, s): EditOp => ({ type: "delete", s })),
      ...after.map((text): EditOp => ({ type: "insert", text })),
    ];
  }
  const table = lcsTable(before, after, (a, b) => a === b);
  const ops: EditOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ type: "keep", s: i++ });
      j++;
    } else if (i < n && (j === m || table[i + 1]![j]! >= table[i]![j + 1]!)) {
      ops.push({ type: "delete", s: i++ });
    } else ops.push({ type: "insert", text: after[j++]! });
  }
  return ops;
}

/** `table[i][j]`: length of the longest common subsequence of `a[i..]` and `b[j..]`. */
export function lcsTable<A, B>(
  a: readonly A[],
  b: readonly B[],
  equal: (x: A, y: B) => boolean,
): Int32Array[] {
  const table = Array.from({ length: a.length + 1 }, () => new Int32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i]![j] = equal(a[i]!, b[j]!)
        ? table[i + 1]![j + 1]! + 1
        : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  return table;
}

/**
 * The lines that replace `window` (the file lines the old text matched). `mapping[s]` is the
 * window index old line `s` corresponds to, or undefined when the file has no such line.
 */
export function mergeEdit(
  window: readonly string[],
  mapping: ReadonlyArray<number | undefined>,
  ops: readonly EditOp[],
  shift: IndentShift | undefined,
  model: readonly string[] = [],
): string[] {
  const out: string[] = [];
  let next = 0;
  for (const [index, op] of ops.entries()) {
    if (op.type === "insert") {
      const local = shift && localShift(window, mapping, ops, index, model, shift);
      out.push(local === undefined ? op.text : reindent(op.text, local));
      continue;
    }
    const at = mapping[op.s];
    if (at === undefined || at < next) continue;
    while (next < at) out.push(window[next++]!);
    if (op.type === "keep") out.push(window[at]!);
    next = at + 1;
  }
  while (next < window.length) out.push(window[next++]!);
  return out;
}

/**
 * The shift for a new line: the offset between the nearest model line it replaces or follows
 * (before it, else after it) and that line in the file; the overall shift when there is none.
 */
function localShift(
  window: readonly string[],
  mapping: ReadonlyArray<number | undefined>,
  ops: readonly EditOp[],
  index: number,
  model: readonly string[],
  shift: IndentShift,
): IndentShift {
  const pairAt = (op: EditOp | undefined): IndentShift | undefined => {
    if (op === undefined || op.type === "insert") return undefined;
    const at = mapping[op.s];
    const line = model[op.s];
    if (at === undefined || line === undefined || isBlank(line) || isBlank(window[at]!)) return undefined;
    const offset = indentWidth(window[at]!, shift.tabWidth) - indentWidth(line, shift.tabWidth);
    return { ...shift, offset };
  };
  for (let k = index - 1; k >= 0; k--) {
    const found = pairAt(ops[k]);
    if (found !== undefined) return found;
  }
  for (let k = index + 1; k < ops.length; k++) {
    const found = pairAt(ops[k]);
    if (found !== undefined) return found;
  }
  return shift;
}

/** How many lines an edit added and removed. */
export interface LineChanges {
  linesAdded: number;
  linesRemoved: number;
}

/**
 * Counts changed lines between two line lists: the common head and tail are skipped, and in the
 * middle a line counts as unchanged when the other side has an equal line left to pair with.
 * Cheap (linear) and exact for the usual edit of one region; moved lines count as unchanged.
 */
export function countLineChanges(before: readonly string[], after: readonly string[]): LineChanges {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail++;
  }
  const remaining = new Map<string, number>();
  for (const line of before.slice(head, before.length - tail)) {
    remaining.set(line, (remaining.get(line) ?? 0) + 1);
  }
  let linesAdded = 0;
  for (const line of after.slice(head, after.length - tail)) {
    const count = remaining.get(line) ?? 0;
    if (count > 0) remaining.set(line, count - 1);
    else linesAdded++;
  }
  let linesRemoved = 0;
  for (const count of remaining.values()) linesRemoved += count;
  return { linesAdded, linesRemoved };
}

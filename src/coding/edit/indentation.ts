/**
 * Indentation arithmetic for tolerant matching: widths with tabs counted as `tabWidth` columns,
 * the constant offset between a model's lines and the file's, and re-indenting new lines by it.
 */

/** How the model's indentation maps onto the file's: add `offset` columns, render in the file's style. */
export interface IndentShift {
  /** Columns a tab counts for, on both sides. */
  tabWidth: number;
  /** Columns to add to a model line's indentation (negative removes). */
  offset: number;
  /** True when the file's lines in the matched region are indented with tabs. */
  useTabs: boolean;
}

export const NO_SHIFT: IndentShift = { tabWidth: 4, offset: 0, useTabs: false };

/** Tab widths tried, most common first. */
const TAB_WIDTHS = [4, 2, 8] as const;

export function leadingWhitespace(line: string): string {
  return /^[\t ]*/.exec(line)?.[0] ?? "";
}

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

export function indentWidth(line: string, tabWidth: number): number {
  let width = 0;
  for (const ch of leadingWhitespace(line)) width += ch === "\t" ? tabWidth : 1;
  return width;
}

/** True when most indented lines of `lines` start with a tab. */
export function usesTabs(lines: readonly string[]): boolean {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    if (isBlank(line)) continue;
    if (line.startsWith("\t")) tabs++;
    else if (line.startsWith(" ")) spaces++;
  }
  return tabs > spaces;
}

/**
 * The shift under which every non-blank pair `[modelLine, fileLine]` has the same indentation
 * offset, trying tab widths 4, 2 and 8; undefined when there is none. Callers compare the
 * trimmed text themselves.
 */
export function constantShift(
  pairs: ReadonlyArray<readonly [string, string]>,
  fileLines: readonly string[],
): IndentShift | undefined {
  const useTabs = usesTabs(fileLines);
  const indented = pairs.filter(([model, file]) => !isBlank(model) && !isBlank(file));
  for (const tabWidth of TAB_WIDTHS) {
    const offsets = new Set(indented.map(([m, f]) => indentWidth(f, tabWidth) - indentWidth(m, tabWidth)));
    if (offsets.size <= 1) return { tabWidth, offset: [...offsets][0] ?? 0, useTabs };
  }
  return undefined;
}

/** The most common offset over the pairs (for loosely matched regions), at the best tab width. */
export function likelyShift(
  pairs: ReadonlyArray<readonly [string, string]>,
  fileLines: readonly string[],
): IndentShift {
  const useTabs = usesTabs(fileLines);
  const indented = pairs.filter(([model, file]) => !isBlank(model) && !isBlank(file));
  let best: IndentShift = { tabWidth: 4, offset: 0, useTabs };
  let bestCount = -1;
  for (const tabWidth of TAB_WIDTHS) {
    const counts = new Map<number, number>();
    for (const [m, f] of indented) {
      const offset = indentWidth(f, tabWidth) - indentWidth(m, tabWidth);
      counts.set(offset, (counts.get(offset) ?? 0) + 1);
    }
    for (const [offset, count] of counts) {
      if (count > bestCount) {
        best = { tabWidth, offset, useTabs };
        bestCount = count;
      }
    }
  }
  return best;
}

/** A new line written by the model, moved by `shift` and indented in the file's style. */
export function reindent(line: string, shift: IndentShift): string {
  if (isBlank(line)) return line;
  const ws = leadingWhitespace(line);
  const styleMatches = ws === "" || ws.includes("\t") === shift.useTabs;
  if (shift.offset === 0 && styleMatches) return line;
  const width = Math.max(0, indentWidth(line, shift.tabWidth) + shift.offset);
  const indent = shift.useTabs
    ? "\t".repeat(Math.floor(width / shift.tabWidth)) + " ".repeat(width % shift.tabWidth)
    : " ".repeat(width);
  return indent + line.slice(ws.length);
}

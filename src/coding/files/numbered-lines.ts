/** Some lines of a file: `lines[0]` is line `first` of `total`. */
export interface LineSource {
  lines: readonly string[];
  first: number;
  total: number;
  /** Per entry of `lines`: bytes already left out when the line was read (streamed long lines); else 0. */
  omittedBytes?: readonly number[];
}

/**
 * Lines `start..end` (1-based, inclusive, within `source`) as read_file shows them:
 * right-aligned numbers, `" | "`, and each line cut to `maxLength` characters with a note.
 */
export function numberLines(source: LineSource, start: number, end: number, maxLength: number): string {
  const width = String(end).length;
  const offset = start - source.first;
  return source.lines
    .slice(offset, end - source.first + 1)
    .map((line, i) => {
      const text = cutLine(line, source.omittedBytes?.[offset + i] ?? 0, maxLength);
      return `${String(start + i).padStart(width)} | ${text}`;
    })
    .join("\n");
}

/** The line cut to `maxLength` characters with a note of what was left out. */
function cutLine(line: string, omittedBytes: number, maxLength: number): string {
  if (omittedBytes > 0) {
    const more = Buffer.byteLength(line.slice(maxLength)) + omittedBytes;
    return `${line.slice(0, maxLength)}… [line cut: ${more} more bytes]`;
  }
  if (line.length <= maxLength) return line;
  return `${line.slice(0, maxLength)}… [line cut: ${line.length - maxLength} more characters]`;
}

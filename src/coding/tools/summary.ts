/** The first line of `text`, cut to `max` characters with an ellipsis, for one-line summaries. */
export function oneLine(text: string, max = 80): string {
  const first = text.trim().split("\n", 1)[0] ?? "";
  const more = first.length < text.trim().length;
  if (first.length > max) return `${first.slice(0, max - 1)}…`;
  return more ? `${first} …` : first;
}

/** A markdown file's `---` front matter (simple `key: value` lines) and body. */
export function parseFrontMatter(text: string): { data: Record<string, string>; body: string } {
  const normalized = text.replace(/\r\n/g, "\n");
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(normalized);
  if (!match) return { data: {}, body: normalized };
  const data: Record<string, string> = {};
  for (const line of match[1]!.split("\n")) {
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const value = line
      .slice(at + 1)
      .trim()
      .replace(/^["']|["']$/g, "");
    data[line.slice(0, at).trim()] = value;
  }
  return { data, body: normalized.slice(match[0].length) };
}

import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { rowsOf, tailCount } from "./format.js";
import { highlightLine } from "./highlight.js";
import type { Theme } from "./theme.js";

/** One line of a markdown text, classified. */
export interface MarkdownLine {
  kind: "text" | "heading" | "code" | "fence" | "quote" | "item" | "rule";
  text: string;
  /** The fence's language, for code lines. */
  lang?: string;
}

/**
 * Classifies the lines of a markdown text (block level only: headings, fenced code, quotes,
 * list items, rules). Linear and line-based, so a streaming message can show its last lines
 * without parsing anything twice.
 */
export function classifyMarkdown(text: string): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let fence: { marker: string; lang: string } | undefined;
  for (const line of text.split("\n")) {
    const opening = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      if (opening && opening[1]!.startsWith(fence.marker) && line.trim() === opening[1]) {
        fence = undefined;
        lines.push({ kind: "fence", text: "" });
      } else lines.push({ kind: "code", text: line, lang: fence.lang });
    } else if (opening) {
      fence = { marker: opening[1]!, lang: opening[2] ?? "" };
      lines.push({ kind: "fence", text: opening[2] ?? "" });
    } else if (/^#{1,6}\s/.test(line)) lines.push({ kind: "heading", text: line.replace(/^#+\s*/, "") });
    else if (/^\s*>\s?/.test(line)) lines.push({ kind: "quote", text: line.replace(/^\s*>\s?/, "") });
    else if (/^\s*([-*+]|\d+[.)])\s/.test(line)) lines.push({ kind: "item", text: line });
    else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) lines.push({ kind: "rule", text: "" });
    else lines.push({ kind: "text", text: line });
  }
  return lines;
}

/**
 * Markdown as terminal lines. With `maxLines`, only the last lines that fit that many rows at
 * `width` columns (and a note of the rest): what a streaming message shows.
 */
export function Markdown(props: { text: string; theme: Theme; maxLines?: number; width?: number }) {
  const { text, theme, maxLines, width = Number.POSITIVE_INFINITY } = props;
  const all = classifyMarkdown(text.replace(/\s+$/, ""));
  const rows = (line: MarkdownLine) => rowsOf(line.text, width - 2);
  const fits = maxLines === undefined || tailCount(all, maxLines, width, rows) === all.length;
  const hidden = fits ? 0 : all.length - tailCount(all, maxLines - 1, width, rows);
  const shown = hidden > 0 ? all.slice(hidden) : all;
  return (
    <Box flexDirection="column">
      {hidden > 0 && <Text dimColor>{`… ${hidden} more lines above`}</Text>}
      {shown.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their place
        <MarkdownLineView key={index} line={line} theme={theme} />
      ))}
    </Box>
  );
}

function MarkdownLineView({ line, theme }: { line: MarkdownLine; theme: Theme }) {
  switch (line.kind) {
    case "heading":
      return (
        <Text bold underline>
          {inline(line.text, theme)}
        </Text>
      );
    case "fence":
      return <Text dimColor>{line.text ? `┌ ${line.text}` : "└"}</Text>;
    case "code": {
      // Tokens are keyed by where they start in the line.
      let at = 0;
      return (
        <Text>
          <Text dimColor>│ </Text>
          {highlightLine(line.text, line.lang).map((token) => {
            const start = at;
            at += token.text.length;
            return (
              <Text key={start} color={token.kind === "plain" ? undefined : theme[token.kind]}>
                {token.text}
              </Text>
            );
          })}
        </Text>
      );
    }
    case "quote":
      return (
        <Text italic>
          <Text dimColor>▎ </Text>
          {inline(line.text, theme)}
        </Text>
      );
    case "item":
      return <Text>{inline(line.text.replace(/^(\s*)[-*+]\s/, "$1• "), theme)}</Text>;
    case "rule":
      return <Text dimColor>{"─".repeat(40)}</Text>;
    default:
      return <Text>{line.text === "" ? " " : inline(line.text, theme)}</Text>;
  }
}

const INLINE =
  /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|\b_[^_\s][^_]*_\b)|(\[[^\]]+\]\([^)\s]+\))/g;

/** Inline code, bold, italics and links within a line. */
export function inline(text: string, theme: Theme): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [whole, code, bold, italic, link] = match;
    if (code)
      parts.push(
        <Text key={key++} color={theme.code}>
          {theme.color ? code.slice(1, -1) : code}
        </Text>,
      );
    else if (bold)
      parts.push(
        <Text key={key++} bold>
          {bold.slice(2, -2)}
        </Text>,
      );
    else if (italic)
      parts.push(
        <Text key={key++} italic>
          {italic.slice(1, -1)}
        </Text>,
      );
    else if (link) {
      const [, label, url] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(link)!;
      parts.push(
        <Text key={key++} underline>
          {label}
        </Text>,
        ` (${url})`,
      );
    } else parts.push(whole);
    last = match.index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

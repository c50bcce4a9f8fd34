/** A piece of a code line, with what it is (for colour; the text itself is unchanged). */
export interface Token {
  text: string;
  kind: "keyword" | "string" | "comment" | "number" | "plain";
}

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue def default defer del do elif else enum " +
    "export extends false fn for from func function go if impl import in interface is lambda let loop match mod " +
    "module mut new nil None not null or package pass private protected pub public raise return self static " +
    "struct super switch this throw true True False try type typeof use var void while with yield"
  ).split(" "),
);

/** Languages whose comments start with `#` rather than `//`. */
const HASH_COMMENTS = new Set([
  "py",
  "python",
  "sh",
  "bash",
  "zsh",
  "shell",
  "yaml",
  "yml",
  "toml",
  "rb",
  "ruby",
  "r",
  "dockerfile",
  "make",
  "makefile",
]);

const PATTERN =
  /("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b\d[\d_.]*(?:e[+-]?\d+)?\b|\b0x[\da-f]+\b)|([A-Za-z_][\w$]*)/gi;

/**
 * Splits one line of code into tokens: strings, numbers, keywords and the comment that ends
 * the line. Line by line and language-agnostic: good enough to read code in a terminal.
 */
export function highlightLine(line: string, lang = ""): Token[] {
  const commentStart = findComment(line, HASH_COMMENTS.has(lang.toLowerCase()) ? "#" : "//");
  const code = commentStart < 0 ? line : line.slice(0, commentStart);
  const tokens: Token[] = [];
  let last = 0;
  for (const match of code.matchAll(PATTERN)) {
    const kind: Token["kind"] = match[1]
      ? "string"
      : match[2]
        ? "number"
        : KEYWORDS.has(match[3]!)
          ? "keyword"
          : "plain";
    if (kind === "plain") continue;
    if (match.index > last) tokens.push({ text: code.slice(last, match.index), kind: "plain" });
    tokens.push({ text: match[0], kind });
    last = match.index + match[0].length;
  }
  if (last < code.length) tokens.push({ text: code.slice(last), kind: "plain" });
  if (commentStart >= 0) tokens.push({ text: line.slice(commentStart), kind: "comment" });
  return tokens;
}

/** Where a line comment starts, outside strings; -1 when there is none. */
function findComment(line: string, marker: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === "\\") i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'" || char === "`") quote = char;
    else if (line.startsWith(marker, i) && (marker !== "#" || i === 0 || /\s/.test(line[i - 1]!))) return i;
  }
  return -1;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  ascii: "\\x00-\\x7F",
  blank: " \\t",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\s",
  upper: "A-Z",
  word: "\\w",
  xdigit: "0-9A-Fa-f",
};

/**
 * Compiles a ripgrep (Rust regex) pattern as a JavaScript RegExp, translating the common
 * differences: `(?P<name>…)` groups, inline flags `(?i)` `(?s)` `(?m)` (applied to the whole
 * pattern), `\A` / `\z`, POSIX classes such as `[[:digit:]]`, and `\pL`-style Unicode classes.
 * Throws a SyntaxError whose message starts with "regex parse error" when it cannot compile.
 */
export function compileRustRegex(pattern: string): RegExp {
  let flags = "";
  let source = pattern.replace(/\(\?([imsUx]+)(\)|:)/g, (_all, letters: string, end: string) => {
    for (const letter of letters) if ("ims".includes(letter) && !flags.includes(letter)) flags += letter;
    return end === ":" ? "(?:" : "";
  });
  source = source
    .replace(/\(\?P</g, "(?<")
    .replace(/\\A/g, "^")
    .replace(/\\z/g, "$")
    .replace(/\[:(\^?)([a-z]+):\]/g, (all, negated: string, name: string) => {
      const chars = POSIX_CLASSES[name];
      return chars === undefined || negated ? all : chars;
    })
    .replace(/\\([pP])([A-Za-z])(?![{A-Za-z])/g, "\\$1{$2}");
  const needsUnicode = /\\[pP]\{/.test(source);
  try {
    return new RegExp(source, needsUnicode ? `${flags}u` : flags);
  } catch (error) {
    throw new SyntaxError(`regex parse error: ${(error as Error).message}`);
  }
}

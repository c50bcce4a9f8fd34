/**
 * A gitignore-syntax matcher: comments, blank lines, `!` re-includes, trailing `/` for directories,
 * anchoring by a leading or inner `/`, `*`, `?`, `[...]` classes and `**`. Later rules win. Paths
 * are relative to the directory the patterns belong to, with `/` separators.
 */
export interface GitignoreMatcher {
  /** Whether any rule was parsed. */
  readonly empty: boolean;
  /**
   * The verdict of the last rule matching `relPath` itself (true: ignored, false: re-included),
   * or undefined when no rule matches. Parent directories are not considered; see `isIgnored`.
   */
  test(relPath: string, isDirectory: boolean): boolean | undefined;
  /**
   * Whether `relPath` is ignored, taking its parent directories into account: once a directory
   * is ignored, nothing below it can be re-included (as in git).
   */
  isIgnored(relPath: string, isDirectory: boolean): boolean;
}

interface Rule {
  regex: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

export interface CompileOptions {
  /** Expand `{a,b}` alternatives, as ripgrep's `--glob` does (gitignore files do not). */
  braces?: boolean;
}

export function compileGitignore(lines: Iterable<string>, options: CompileOptions = {}): GitignoreMatcher {
  const rules: Rule[] = [];
  for (const line of lines) {
    const rule = parseRule(line, options);
    if (rule !== undefined) rules.push(rule);
  }
  const test = (relPath: string, isDirectory: boolean): boolean | undefined => {
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]!;
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.regex.test(relPath)) return !rule.negated;
    }
    return undefined;
  };
  return {
    empty: rules.length === 0,
    test,
    isIgnored(relPath, isDirectory) {
      if (rules.length === 0) return false;
      for (let slash = relPath.indexOf("/"); slash !== -1; slash = relPath.indexOf("/", slash + 1)) {
        if (test(relPath.slice(0, slash), true) === true) return true;
      }
      return test(relPath, isDirectory) === true;
    },
  };
}

/** Splits file text into pattern lines (CRLF tolerated). */
export function patternLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function parseRule(raw: string, options: CompileOptions): Rule | undefined {
  let line = stripTrailingSpaces(raw);
  if (line === "" || line.startsWith("#")) return undefined;
  let negated = false;
  if (line.startsWith("!")) {
    negated = true;
    line = line.slice(1);
  } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
    line = line.slice(1);
  }
  let directoryOnly = false;
  if (line.endsWith("/")) {
    directoryOnly = true;
    line = line.replace(/\/+$/, "");
  }
  if (line === "") return undefined;
  // A slash at the start or in the middle anchors the pattern to the base directory.
  const anchored = line.includes("/");
  if (line.startsWith("/")) line = line.slice(1);
  const body = globToRegexSource(line, options.braces === true);
  const source = anchored || line.startsWith("**/") ? body : `(?:.*/)?${body}`;
  return { regex: new RegExp(`^${source}$`), negated, directoryOnly };
}

function stripTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end);
}

const REGEX_SPECIAL = /[.+^${}()|[\]\\*?]/;

/** Translates one glob (already stripped of `!`, anchors and the trailing `/`) to a regex body. */
export function globToRegexSource(glob: string, braces: boolean): string {
  let out = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          i++;
          if (i + 1 === glob.length) out += ".*";
          else {
            out += "(?:.*/)?";
            i++; // the slash after `**`
          }
          continue;
        }
        i++;
      }
      out += "[^/]*";
    } else if (ch === "?") {
      out += "[^/]";
    } else if (ch === "[") {
      const end = classEnd(glob, i);
      if (end === -1) out += "\\[";
      else {
        out += classToRegex(glob.slice(i + 1, end));
        i = end;
      }
    } else if (ch === "\\" && i + 1 < glob.length) {
      i++;
      out += escapeChar(glob[i]!);
    } else if (braces && ch === "{") {
      braceDepth++;
      out += "(?:";
    } else if (braces && ch === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (braces && ch === "," && braceDepth > 0) {
      out += "|";
    } else {
      out += escapeChar(ch);
    }
  }
  return out + ")".repeat(braceDepth);
}

function escapeChar(ch: string): string {
  return REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch;
}

/** Index of the `]` closing the class opened at `start`, or -1. */
function classEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === "!" || glob[i] === "^") i++;
  if (glob[i] === "]") i++;
  for (; i < glob.length; i++) {
    if (glob[i] === "\\") i++;
    else if (glob[i] === "]") return i;
  }
  return -1;
}

function classToRegex(inner: string): string {
  let body = inner;
  let negate = "";
  if (body.startsWith("!") || body.startsWith("^")) {
    negate = "^";
    body = body.slice(1);
  }
  const escaped = body.replace(/\\(.)/g, "$1").replace(/[\\\]^[]/g, (c) => `\\${c}`);
  return negate ? `(?:(?!/)[^${escaped}])` : `[${escaped}]`;
}

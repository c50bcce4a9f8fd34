import type { Node } from "web-tree-sitter";

/**
 * One shell word as the analyser understands it. `text` is the word after quote removal when it
 * is fully known; for a word with expansions it is the source text, and `dynamic` is set.
 */
export interface ShellWord {
  text: string;
  /** Its value is only known when the line runs (variables, substitutions, brace expansion). */
  dynamic: boolean;
  /** Has an unquoted `*`, `?` or `[`: it may become several words, or an option. */
  glob: boolean;
}

/** The value of an argument or command-name node. */
export function evaluateWord(node: Node): ShellWord {
  switch (node.type) {
    case "command_name":
      return node.firstNamedChild ? evaluateWord(node.firstNamedChild) : dynamicWord(node);
    case "word":
      return unquotedWord(node.text);
    case "number":
      return { text: node.text, dynamic: false, glob: false };
    case "raw_string":
      return { text: node.text.slice(1, -1), dynamic: false, glob: false };
    case "string":
    case "translated_string":
      return doubleQuoted(node);
    case "ansi_c_string":
      return ansiC(node);
    case "concatenation":
      return concatenation(node);
    default:
      // Expansions, substitutions, brace expressions, arrays: known only at run time.
      return dynamicWord(node);
  }
}

const dynamicWord = (node: Node): ShellWord => ({ text: node.text, dynamic: true, glob: false });

/** A bare word: backslashes quote the next character; unquoted glob and brace characters count. */
function unquotedWord(source: string): ShellWord {
  let text = "";
  let glob = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\") {
      const next = source[++i];
      if (next !== undefined && next !== "\n") text += next;
      continue;
    }
    if (char === "*" || char === "?" || char === "[") glob = true;
    text += char;
  }
  // `{a,b}` and `{1..3}` expand into several words (a program name among them, possibly).
  const brace = /[{}]/.test(source) && /\{[^}]*(,|\.\.)[^}]*\}/.test(source);
  return { text: brace ? source : text, dynamic: brace, glob };
}

function doubleQuoted(node: Node): ShellWord {
  let text = "";
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type !== "string_content") return dynamicWord(node);
    text += child.text.replace(/\\([$`"\\\n])/g, (_match, escaped: string) =>
      escaped === "\n" ? "" : escaped,
    );
  }
  return { text, dynamic: false, glob: false };
}

function concatenation(node: Node): ShellWord {
  const parts = node.namedChildren.filter((child): child is Node => child !== null);
  // Brace expansion appears as the words `{`, `a,b`, `}` side by side.
  const braces = parts.some((part) => part.type === "word" && part.text === "{");
  if (braces && /\{[^}]*(,|\.\.)[^}]*\}/.test(node.text)) return dynamicWord(node);
  let text = "";
  let glob = false;
  for (const part of parts) {
    const value = evaluateWord(part);
    if (value.dynamic) return dynamicWord(node);
    text += value.text;
    glob ||= value.glob;
  }
  return { text, dynamic: false, glob };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** `$'...'`, decoded; an escape this decoder does not know makes the word dynamic. */
function ansiC(node: Node): ShellWord {
  const body = node.text.slice(2, -1);
  let text = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      text += char;
      continue;
    }
    const rest = body.slice(i + 1);
    const next = rest[0] ?? "";
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest);
    const octal = /^([0-7]{1,3})/.exec(rest);
    const unicode = /^[uU]([0-9a-fA-F]{1,8})/.exec(rest);
    if (hex) {
      text += String.fromCharCode(Number.parseInt(hex[1]!, 16));
      i += hex[0].length;
    } else if (octal) {
      text += String.fromCharCode(Number.parseInt(octal[1]!, 8) & 0xff);
      i += octal[0].length;
    } else if (unicode && Number.parseInt(unicode[1]!, 16) <= 0x10ffff) {
      text += String.fromCodePoint(Number.parseInt(unicode[1]!, 16));
      i += unicode[0].length;
    } else if (next in SIMPLE_ESCAPES) {
      text += SIMPLE_ESCAPES[next];
      i += 1;
    } else {
      return dynamicWord(node);
    }
  }
  return { text, dynamic: false, glob: false };
}

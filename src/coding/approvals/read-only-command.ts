import type { CommandCheck } from "../../agent/pipeline/approval-policy.js";
import { checkReadOnlyProgram } from "../safety/read-only-programs.js";

/**
 * The word-based read-only check for shell commands, for when the shell parser is not loaded
 * (the analyser in ../safety/ is the full one). A command passes only when it is one simple
 * command (no operators, redirections, substitutions, subshells, variables, comments or line
 * breaks outside quotes), its program is named without a path and without environment
 * assignments, and that program is in the read-only list with arguments its rule accepts.
 * Unquoted globs are accepted only for programs without options that run or write anything,
 * since a file name like `--pre=x.sh` would otherwise become an option.
 */
export function checkReadOnlyCommand(command: string): CommandCheck {
  const split = splitWords(command);
  if (typeof split === "string") return notReadOnly(split);
  const [program, ...rest] = split;
  if (!program) return notReadOnly("the command is empty");
  if (program.text.includes("=")) return notReadOnly("it sets environment variables");
  if (program.text.includes("/")) return notReadOnly("it runs a program by path");
  if (program.glob) return notReadOnly(`${program.text} is not in the read-only command list`);
  return checkReadOnlyProgram(
    program.text,
    rest.map((word) => word.text),
    rest.some((word) => word.glob),
  );
}

const notReadOnly = (reason: string): CommandCheck => ({ readOnly: false, reason });

interface Word {
  text: string;
  /** Has an unquoted `*`, `?` or `[`. */
  glob: boolean;
}

const OPERATOR_REASONS: Record<string, string> = {
  ";": "it chains commands (;)",
  "&": "it chains or backgrounds commands (&)",
  "|": "it pipes or chains commands (|)",
  "<": "it redirects input (<)",
  ">": "it redirects output (>)",
  "(": "it uses a subshell or grouping",
  ")": "it uses a subshell or grouping",
  $: "it expands variables or substitutes commands ($)",
  "`": "it substitutes commands (`)",
  "#": "it contains a comment (#)",
  "\n": "it spans several lines",
  "\r": "it spans several lines",
};

/** Shell words of a simple command, or why the command is not one. */
function splitWords(command: string): Word[] | string {
  const words: Word[] = [];
  let current: Word | undefined;
  const word = () => {
    current ??= { text: "", glob: false };
    return current;
  };
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (char === " " || char === "\t") {
      if (current) words.push(current);
      current = undefined;
    } else if (char in OPERATOR_REASONS) {
      return OPERATOR_REASONS[char]!;
    } else if (char === "\\") {
      const next = command[++i];
      if (next === undefined || next === "\n") return "it spans several lines";
      word().text += next;
    } else if (char === "'" || char === '"') {
      const close = command.indexOf(char, i + 1);
      if (close < 0) return "its quotes are unbalanced";
      const quoted = command.slice(i + 1, close);
      if (char === '"' && /[$`\\]/.test(quoted)) return "it expands or escapes inside double quotes";
      word().text += quoted;
      i = close;
    } else {
      const target = word();
      target.text += char;
      if (char === "*" || char === "?" || char === "[") target.glob = true;
    }
  }
  if (current) words.push(current);
  return words;
}

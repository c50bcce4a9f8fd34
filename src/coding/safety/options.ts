import type { ShellWord } from "./shell-words.js";

/**
 * Where a program's operands start, given the options that take a separate value. Stops at
 * `--`, at the first word not starting with `-`, and at a word only known at run time (which
 * the caller then treats as the operand it cannot read). Options not listed count as flags.
 */
export function firstOperand(args: readonly ShellWord[], valued: ReadonlySet<string>, from = 0): number {
  let i = from;
  while (i < args.length) {
    const word = args[i]!;
    if (word.dynamic) return i;
    const text = word.text;
    if (text === "--") return i + 1;
    if (!text.startsWith("-") || text === "-") return i;
    if (text.startsWith("--")) {
      if (!text.includes("=") && valued.has(text)) i++;
    } else if (valued.has(text)) {
      i++;
    }
    i++;
  }
  return args.length;
}

/** The value of option `names` (`-o v`, `-ov`, `--opt=v`, `--opt v`), or undefined. */
export function optionValue(args: readonly ShellWord[], names: readonly string[]): ShellWord | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    for (const name of names) {
      if (text === name) return args[i + 1];
      if (name.startsWith("--") && text.startsWith(`${name}=`)) return literal(text.slice(name.length + 1));
      if (!name.startsWith("--") && text.startsWith(name) && text.length > name.length) {
        return literal(text.slice(name.length));
      }
    }
  }
  return undefined;
}

/** The index of the first word that is option `names` (exact, or `--opt=...`), or -1. */
export function optionIndex(args: readonly ShellWord[], names: readonly string[]): number {
  return args.findIndex(
    (word) =>
      !word.dynamic &&
      names.some((name) => word.text === name || (name.startsWith("--") && word.text.startsWith(`${name}=`))),
  );
}

/** True when a short-option cluster (`-lc`, `-ne`) among the options contains `letter`. */
export function clusterHas(word: ShellWord, letter: string): boolean {
  return !word.dynamic && /^-[A-Za-z]+$/.test(word.text) && word.text.includes(letter);
}

export const literal = (text: string): ShellWord => ({ text, dynamic: false, glob: false });

/** The words joined by spaces, as a shell would re-read them; undefined when one is dynamic. */
export function joinWords(words: readonly ShellWord[]): string | undefined {
  return words.some((word) => word.dynamic) ? undefined : words.map((word) => word.text).join(" ");
}

/** `/usr/bin/env` → `env`; the program a name runs, for matching wrappers and deny rules. */
export function programName(word: ShellWord): string {
  const slash = word.text.lastIndexOf("/");
  return slash < 0 ? word.text : word.text.slice(slash + 1);
}

import path from "node:path";
import type { Workspace } from "../workspace.js";
import { type IgnoreRules, ignoreSourceLabel } from "./ignore-rules.js";

/** The model-facing message for a blocked path. */
export function blockedMessage(ignore: IgnoreRules, display: string): string {
  const source = ignoreSourceLabel(ignore);
  return `Access to ${display} is blocked by ${source}. Continue the task without this file, or ask the user to change ${source}.`;
}

/**
 * Undefined when the tool may use `abs` (an absolute path from `workspace.resolve`); otherwise
 * the model-facing error to return as an `isError` result. `ignore` may be undefined (no rules).
 */
export function checkNotIgnored(
  ignore: IgnoreRules | undefined,
  abs: string,
  workspace: Workspace,
): string | undefined {
  if (ignore === undefined || !ignore.isIgnored(abs)) return undefined;
  return blockedMessage(ignore, workspace.relative(abs));
}

/**
 * A simple check of a shell command's words: when one names an ignored path (relative to the
 * workspace root, or absolute inside it), returns the model-facing error; otherwise undefined.
 * It is a guard against accidents, not a sandbox: paths built at run time are not seen.
 */
export function commandMentionsIgnored(
  command: string,
  ignore: IgnoreRules | undefined,
  workspace: Workspace,
): string | undefined {
  if (ignore === undefined || ignore.sources.length === 0) return undefined;
  const words = shellWords(command);
  // Words may be relative to a directory the command changes into (`cd src && cat ../x`), so
  // each is checked against the workspace root and every `cd`/`pushd` target in the line.
  const bases = [workspace.root];
  words.forEach((word, i) => {
    const target = words[i + 1];
    if ((word === "cd" || word === "pushd") && target !== undefined) {
      for (const base of [...bases]) bases.push(path.resolve(base, target));
    }
  });
  for (const word of words) {
    for (const candidate of pathCandidates(word)) {
      for (const base of bases) {
        const abs = path.resolve(base, candidate);
        if (!ignore.isIgnored(abs)) continue;
        const source = ignoreSourceLabel(ignore);
        return `The command uses ${workspace.relative(abs)}, which is blocked by ${source}. Continue the task without this file, or ask the user to change ${source}.`;
      }
    }
  }
  return undefined;
}

/** Words of a command line: quotes removed, split on blanks and the operators `| & ; < > ( )`. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: '"' | "'" | undefined;
  const flush = () => {
    if (word !== "") words.push(word);
    word = "";
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === "\\" && i + 1 < command.length) {
      word += command[++i];
    } else if (/[\s|&;<>()`]/.test(ch)) {
      flush();
    } else {
      word += ch;
    }
  }
  flush();
  return words;
}

/** The parts of a word that could be paths: the word, an option's or assignment's value. */
function pathCandidates(word: string): string[] {
  if (word.includes("://") || word.startsWith("$")) return [];
  const eq = word.indexOf("=");
  const value = eq === -1 ? undefined : word.slice(eq + 1);
  const candidates = word.startsWith("-") ? [] : [word];
  if (value !== undefined && value !== "") candidates.push(value);
  return candidates
    .map((c) => (c.startsWith("~") ? "" : c.replace(/\/+$/, "")))
    .filter((c) => c !== "" && c !== "." && c !== "..");
}

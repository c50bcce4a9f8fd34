import type { Node } from "web-tree-sitter";
import { evaluateWord } from "./shell-words.js";

/** Variables that change which program runs or what it loads. */
const DANGEROUS_VARIABLE =
  /^(PATH|IFS|ENV|BASH_ENV|CDPATH|HOME|SHELLOPTS|BASHOPTS|GLOBIGNORE|PS4|PROMPT_COMMAND|EDITOR|VISUAL|BROWSER|LESSOPEN|LESSCLOSE|NODE_OPTIONS|NODE_PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|XDG_CONFIG_HOME|SSH_ASKPASS|SUDO_ASKPASS)$|^(LD_|DYLD_|GIT_|PYTHON|PERL|RUBY|npm_config_|NPM_CONFIG_|BASH_FUNC_)|PAGER$|_EDITOR$/;

/** True when assigning `name` changes which program later commands run, or what they load. */
export function changesWhatRuns(name: string): boolean {
  return DANGEROUS_VARIABLE.test(name);
}

/**
 * The shell code between backticks in an unquoted here-document: the grammar leaves it as text,
 * the shell runs it.
 */
export function hereDocumentBackticks(heredoc: Node): string[] {
  const start = heredoc.children.find((child) => child?.type === "heredoc_start")?.text ?? "";
  const body = heredoc.children.find((child) => child?.type === "heredoc_body");
  if (!body || /['"\\]/.test(start)) return [];
  return [...body.text.matchAll(/(?<!\\)`((?:[^`\\]|\\.)*)`/g)].map((match) => match[1]!);
}

/** The literal text a command reads on standard input from a here-string or here-document. */
export function stdinOf(command: Node): string | undefined {
  const herestring = command.children.find((child) => child?.type === "herestring_redirect");
  const parent = command.parent;
  const heredoc =
    parent?.type === "redirected_statement" && parent.childForFieldName("body")?.id === command.id
      ? parent.children.find((child) => child?.type === "heredoc_redirect")
      : undefined;
  if (herestring) {
    const value = herestring.namedChildren.find((child) => child !== null);
    const word = value ? evaluateWord(value) : undefined;
    return word && !word.dynamic ? word.text : undefined;
  }
  if (!heredoc) return undefined;
  const body = heredoc.children.find((child) => child?.type === "heredoc_body");
  if (!body) return "";
  const quoted = /['"\\]/.test(heredoc.children.find((child) => child?.type === "heredoc_start")?.text ?? "");
  const expands = body.namedChildren.some((child) => child && child.type !== "heredoc_content");
  return quoted || !expands ? body.text : undefined;
}

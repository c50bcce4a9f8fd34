import type { CommandCheck } from "../../agent/pipeline/approval-policy.js";

/**
 * The built-in read-only check for shell commands. A command passes only when it is one simple
 * command (no operators, redirections, substitutions, subshells, variables, comments or line
 * breaks outside quotes), its program is named without a path and without environment
 * assignments, and that program is in the table below with arguments the table's rule accepts.
 * Unquoted globs are accepted only for programs without options that run or write anything,
 * since a file name like `--pre=x.sh` would otherwise become an option.
 *
 * Known limit: repository configuration (e.g. `diff.external` in .git/config) can still make a
 * git read run a program; editing .git needs approval (see the protected paths).
 */
export function checkReadOnlyCommand(command: string): CommandCheck {
  const split = splitWords(command);
  if (typeof split === "string") return notReadOnly(split);
  const [program, ...rest] = split;
  if (!program) return notReadOnly("the command is empty");
  if (program.text.includes("=")) return notReadOnly("it sets environment variables");
  if (program.text.includes("/")) return notReadOnly("it runs a program by path");
  const rule = RULES[program.text];
  if (!rule || program.glob) return notReadOnly(`${program.text} is not in the read-only command list`);
  if (!rule.globs && rest.some((word) => word.glob)) {
    return notReadOnly(`unquoted globs are not accepted for ${program.text}`);
  }
  const reason = rule.check?.(rest.map((word) => word.text));
  return reason === undefined ? { readOnly: true } : notReadOnly(reason);
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

interface ReadOnlyRule {
  /** Unquoted globs may appear in the arguments. */
  globs: boolean;
  /** Why these arguments are not read-only; undefined when they are. */
  check?(args: readonly string[]): string | undefined;
}

const PLAIN: ReadOnlyRule = { globs: true };
const VERSION_ONLY: ReadOnlyRule = {
  globs: false,
  check: (args) =>
    args.length === 1 && ["--version", "-v", "-V"].includes(args[0]!)
      ? undefined
      : "only a version query is read-only",
};

/** Rejects `args` naming one of `options`, including abbreviations and `--opt=value`. */
function forbidOptions(program: string, options: readonly string[]) {
  return (args: readonly string[]): string | undefined => {
    for (const arg of args) {
      const name = arg.split("=")[0]!;
      const hit = options.find(
        (option) => option === name || (name.startsWith("--") && name.length > 2 && option.startsWith(name)),
      );
      if (hit !== undefined) return `${program} ${hit} can run programs or write files`;
    }
    return undefined;
  };
}

const FIND_ACTIONS = [
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
];

const RULES: Record<string, ReadOnlyRule> = {
  ls: PLAIN,
  cat: PLAIN,
  head: PLAIN,
  tail: PLAIN,
  wc: PLAIN,
  pwd: PLAIN,
  echo: PLAIN,
  grep: PLAIN,
  egrep: PLAIN,
  fgrep: PLAIN,
  stat: PLAIN,
  du: PLAIN,
  df: PLAIN,
  diff: PLAIN,
  cmp: PLAIN,
  basename: PLAIN,
  dirname: PLAIN,
  realpath: PLAIN,
  which: PLAIN,
  whoami: PLAIN,
  uname: PLAIN,
  rg: {
    globs: false,
    check: (args) => (args.some((arg) => arg.startsWith("--pre")) ? "rg --pre runs a program" : undefined),
  },
  find: {
    globs: false,
    check: (args) => {
      const action = args.find((arg) => FIND_ACTIONS.includes(arg));
      return action === undefined ? undefined : `find ${action} can run programs or change files`;
    },
  },
  git: { globs: false, check: checkGit },
  node: VERSION_ONLY,
  npm: VERSION_ONLY,
  pnpm: VERSION_ONLY,
  yarn: VERSION_ONLY,
  python: VERSION_ONLY,
  python3: VERSION_ONLY,
  tsc: VERSION_ONLY,
  deno: VERSION_ONLY,
  bun: VERSION_ONLY,
  cargo: VERSION_ONLY,
  rustc: VERSION_ONLY,
};

const GIT_OUTPUT_OPTIONS = ["--output", "--ext-diff", "--textconv"];

function checkGit(args: readonly string[]): string | undefined {
  let at = 0;
  while (args[at] === "--no-pager") at++;
  const sub = args[at];
  const rest = args.slice(at + 1);
  if (sub === "--version" && rest.length === 0) return undefined;
  if (sub === undefined) return "git needs a subcommand";
  if (sub.startsWith("-")) return `git option ${sub} before the subcommand is not accepted`;
  switch (sub) {
    case "status":
      return undefined;
    case "log":
    case "show":
    case "diff":
      return forbidOptions(`git ${sub}`, GIT_OUTPUT_OPTIONS)(rest);
    case "branch":
      return checkGitBranch(rest);
    default:
      return `git ${sub} is not a read-only git command`;
  }
}

const BRANCH_LIST_OPTIONS = [
  "--all",
  "--remotes",
  "--verbose",
  "--list",
  "--show-current",
  "--color",
  "--no-color",
];

/** `git branch` only when it lists: known listing options, and names only as `--list` patterns. */
function checkGitBranch(args: readonly string[]): string | undefined {
  const listing = args.some((arg) => arg === "--list" || /^-[arv]*l[arvl]*$/.test(arg));
  for (const arg of args) {
    if (arg.startsWith("--")) {
      const known =
        BRANCH_LIST_OPTIONS.includes(arg) || arg.startsWith("--sort=") || arg.startsWith("--format=");
      if (!known) return `git branch ${arg} is not a listing option`;
    } else if (arg.startsWith("-")) {
      if (!/^-[arvl]+$/.test(arg)) return `git branch ${arg} is not a listing option`;
    } else if (!listing) {
      return "git branch with a name creates a branch";
    }
  }
  return undefined;
}

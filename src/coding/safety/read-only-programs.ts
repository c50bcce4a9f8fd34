import type { CommandCheck } from "../../agent/pipeline/approval-policy.js";

/**
 * The built-in list of read-only programs, and which of their arguments keep them read-only.
 * `args` are the words after the program, known literally; `open` says some of them are only
 * known at run time (globs, variables, arguments xargs adds), so a file name could turn into an
 * option: only programs without options that run or write anything accept that.
 *
 * Known limit: repository configuration (e.g. `diff.external` in .git/config) can still make a
 * git read run a program; editing .git needs approval (see the protected paths).
 */
export function checkReadOnlyProgram(program: string, args: readonly string[], open: boolean): CommandCheck {
  const rule = RULES[program];
  if (!rule) return notReadOnly(`${program} is not in the read-only command list`);
  if (!rule.globs && open) return notReadOnly(`unquoted globs are not accepted for ${program}`);
  const reason = rule.check?.(args);
  return reason === undefined ? { readOnly: true } : notReadOnly(reason);
}

const notReadOnly = (reason: string): CommandCheck => ({ readOnly: false, reason });

interface ReadOnlyRule {
  /** Unquoted globs (or other run-time words) may appear in the arguments. */
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
const NO_ARGUMENTS: ReadOnlyRule = {
  globs: false,
  check: (args) => (args.length === 0 ? undefined : "only without arguments is it read-only"),
};

/** Rejects `args` naming one of `options`, including abbreviations and `--opt=value`. */
function forbidOptions(program: string, options: readonly string[]) {
  return (args: readonly string[]): string | undefined => {
    for (const arg of args) {
      const name = arg.split("=")[0]!;
      const hit = options.find(
        (option) =>
          option === name ||
          (name.startsWith("--") && name.length > 2 && option.startsWith(name)) ||
          // A short option inside a cluster (`-no`) or with its value attached (`-ofile`).
          (/^-[^-]$/.test(option) && /^-[^-]/.test(name) && name.includes(option[1]!)),
      );
      if (hit !== undefined) return `${program} ${hit} can run programs or write files`;
    }
    return undefined;
  };
}

/** At most `max` operands (words not starting with `-`): a further one would be an output file. */
function atMostOperands(program: string, max: number) {
  return (args: readonly string[]): string | undefined =>
    args.filter((arg) => !arg.startsWith("-")).length > max
      ? `${program} with more than ${max} file operand(s) writes the last one`
      : undefined;
}

/** Run a command for each file; the analyser checks those commands on their own. */
export const FIND_EXEC_ACTIONS = ["-exec", "-execdir", "-ok", "-okdir"];
const FIND_ACTIONS = [...FIND_EXEC_ACTIONS, "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"];

const SED_PRINT = /^(-n|--quiet|--silent|-E|-r|--regexp-extended|-s|--separate|-u|-z)$/;
/** `sed -n '1,20p' file` and the like: addresses with p, =, q or d only. */
function checkSed(args: readonly string[]): string | undefined {
  let script: string | undefined;
  for (const arg of args) {
    if (SED_PRINT.test(arg)) continue;
    if (arg.startsWith("-")) return `sed ${arg} is not accepted as read-only`;
    script ??= arg;
  }
  if (script === undefined) return "sed needs a script";
  const command = /^(\s*(\d+|\$|\/[^/]*\/)?(,(\d+|\$|\/[^/]*\/))?\s*!?\s*[pdq=]\s*;?)+$/;
  return command.test(script) ? undefined : "only sed scripts that print lines are read-only";
}

const RULES: Record<string, ReadOnlyRule> = {
  ls: PLAIN,
  cat: PLAIN,
  head: PLAIN,
  tail: PLAIN,
  wc: PLAIN,
  pwd: PLAIN,
  echo: PLAIN,
  printf: { globs: true, check: forbidOptions("printf", ["-v"]) },
  grep: PLAIN,
  egrep: PLAIN,
  fgrep: PLAIN,
  stat: PLAIN,
  du: PLAIN,
  df: PLAIN,
  diff: PLAIN,
  cmp: PLAIN,
  comm: PLAIN,
  cut: PLAIN,
  tr: PLAIN,
  nl: PLAIN,
  tac: PLAIN,
  rev: PLAIN,
  file: PLAIN,
  basename: PLAIN,
  dirname: PLAIN,
  realpath: PLAIN,
  readlink: PLAIN,
  which: PLAIN,
  type: PLAIN,
  whoami: PLAIN,
  id: PLAIN,
  uname: PLAIN,
  true: PLAIN,
  false: PLAIN,
  test: PLAIN,
  "[": PLAIN,
  "[[": PLAIN,
  ":": PLAIN,
  sha256sum: PLAIN,
  sha1sum: PLAIN,
  md5sum: PLAIN,
  jq: PLAIN,
  sleep: PLAIN,
  seq: PLAIN,
  date: { globs: false, check: forbidOptions("date", ["-s", "--set", "-f", "--file"]) },
  hostname: NO_ARGUMENTS,
  sort: { globs: false, check: forbidOptions("sort", ["-o", "--output", "--compress-program"]) },
  uniq: { globs: false, check: atMostOperands("uniq", 1) },
  tree: { globs: false, check: forbidOptions("tree", ["-o"]) },
  sed: { globs: false, check: checkSed },
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
  go: VERSION_ONLY,
  java: VERSION_ONLY,
};

/** Names the read-only list knows (for `bowline permissions explain`). */
export const READ_ONLY_PROGRAMS: readonly string[] = Object.keys(RULES);

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
    case "rev-parse":
    case "ls-files":
    case "merge-base":
    case "describe":
      return undefined;
    case "log":
    case "show":
    case "diff":
    case "blame":
    case "shortlog":
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

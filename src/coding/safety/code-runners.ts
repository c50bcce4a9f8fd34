import { clusterHas, firstOperand, joinWords, optionIndex, programName } from "./options.js";
import { FIND_EXEC_ACTIONS } from "./read-only-programs.js";
import type { ShellWord } from "./shell-words.js";
import type { Inner } from "./wrappers.js";

/** What the analyser learns from a program's own arguments. Word indexes count the program as 0. */
export interface ProgramFacts {
  /** The words rules are matched against, when they differ from the command's (git without `-C x`). */
  matchWords?: ShellWord[];
  /** Arguments for the read-only check, when they differ (find without its `-exec ... ;` parts). */
  readOnlyArgs?: ShellWord[];
  /**
   * The command runs code the analyser cannot see. An allow rule covers it only when the rule
   * spells out the words up to `at` (e.g. `python3 -c`); `at: Infinity` means no rule can.
   */
  opaque?: { reason: string; at: number };
  inner?: Inner[];
}

/** Options that make a program run inline code or another program, by program. */
const CODE_OPTIONS: Record<string, readonly string[]> = {
  node: ["-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader"],
  nodejs: ["-e", "--eval", "-p", "--print"],
  bun: ["-e", "--eval", "-p", "--print"],
  ruby: ["-e"],
  php: ["-r"],
  lua: ["-e"],
  Rscript: ["-e"],
  osascript: ["-e"],
  tar: ["--to-command", "-I", "--use-compress-program", "--checkpoint-action", "--info-script", "-F"],
  rsync: ["-e", "--rsh", "--rsync-path"],
  zip: ["-TT", "--unzip-command"],
  rg: ["--pre"],
};

const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"]);

/** Facts about `words` (program first, literally known). */
export function programFacts(words: ShellWord[]): ProgramFacts {
  const name = programName(words[0]!);
  const args = words.slice(1);
  if (name === "git") return gitFacts(words);
  if (name === "find") return findFacts(words);
  if (/^python[\d.]*$/.test(name) || name === "pypy3") {
    return interpreter(args, name, clusterCode(args, "c", `${name} -c`));
  }
  if (name === "perl") return interpreter(args, name, clusterCode(args, "eE", "perl -e"));
  if (name === "deno" && args[0]?.text === "eval")
    return { opaque: { reason: "deno eval runs inline code", at: 1 } };
  if (AWKS.has(name)) return awkFacts(args, name);
  const options = CODE_OPTIONS[name];
  if (options) {
    const at = optionIndex(args, options);
    if (at >= 0)
      return { opaque: { reason: `${name} ${args[at]!.text.split("=")[0]} runs code`, at: at + 1 } };
  }
  return INTERPRETERS.has(name) ? interpreter(args, name, {}) : {};
}

const INTERPRETERS = new Set(["node", "nodejs", "bun", "ruby", "php", "lua", "Rscript"]);
const QUERIES = /^(-v|-V|--version|-h|--help)$/;
/** Modes in which an interpreter runs files it finds itself (tests), not code from its input. */
const FILE_MODES = /^(--test|--run)(=.*)?$/;

/** An interpreter given no program file (or `-`) runs the code it reads from standard input. */
function interpreter(args: ShellWord[], name: string, facts: ProgramFacts): ProgramFacts {
  if (facts.opaque || args.some((word) => word.text === "-m" || QUERIES.test(word.text))) return facts;
  if (name === "node" && args.some((word) => FILE_MODES.test(word.text))) return facts;
  const operand = args.find((word) => word.dynamic || !word.text.startsWith("-") || word.text === "-");
  if (operand && operand.text !== "-") return facts;
  return { opaque: { reason: `${name} runs the code it reads from its input`, at: Infinity } };
}

/** An interpreter whose short-option cluster with one of `letters` takes inline code. */
function clusterCode(args: ShellWord[], letters: string, what: string): ProgramFacts {
  const at = args.findIndex(
    (word) => word.text.startsWith("-") && [...letters].some((l) => clusterHas(word, l)),
  );
  return at < 0 ? {} : { opaque: { reason: `${what} runs inline code`, at: at + 1 } };
}

function awkFacts(args: ShellWord[], name: string): ProgramFacts {
  if (args.some((word) => word.text === "-f" || word.text.startsWith("--file"))) {
    return { opaque: { reason: `${name} -f runs a program file`, at: Number.POSITIVE_INFINITY } };
  }
  const at = firstOperand(args, new Set(["-F", "-v", "--field-separator", "--assign"]));
  return at < args.length ? { opaque: { reason: `${name} programs can run commands`, at: at + 1 } } : {};
}

/** Each `-exec ... ;` / `-exec ... {} +` runs a command for every file found. */
function findFacts(words: ShellWord[]): ProgramFacts {
  const inner: Inner[] = [];
  const own: ShellWord[] = [];
  const args = words.slice(1);
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!FIND_EXEC_ACTIONS.includes(word.text)) {
      own.push(word);
      continue;
    }
    let end = i + 1;
    while (end < args.length && args[end]!.text !== ";" && args[end]!.text !== "+") end++;
    const command = args.slice(i + 1, end);
    if (command.length > 0)
      inner.push({ kind: "command", words: command, via: `find ${word.text}`, openArgs: true });
    i = end;
  }
  return inner.length === 0 ? {} : { inner, readOnlyArgs: own };
}

const GIT_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
]);
/** Global options through which git can be made to run any program. */
const GIT_CONFIGURING = ["-c", "--config-env", "--exec-path", "--git-dir", "--work-tree"];
/** Configuration keys whose values are commands git runs. */
const GIT_COMMAND_KEYS =
  /^(alias\.|core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy)$|diff\.external$|sequence\.editor$|credential\.|gpg\.|filter\.|.*\.(textconv|command|cmd|helper|driver|program|tool|path)$)/i;

function gitFacts(words: ShellWord[]): ProgramFacts {
  const args = words.slice(1);
  const at = firstOperand(args, GIT_VALUED);
  const global = args.slice(0, at);
  const sub = args.slice(at);
  const facts: ProgramFacts = global.length > 0 ? { matchWords: [words[0]!, ...sub] } : {};
  if (
    global.some((word) =>
      GIT_CONFIGURING.some((name) => word.text === name || word.text.startsWith(`${name}=`)),
    )
  ) {
    facts.opaque = {
      reason: "git configuration given on the command line can run any program",
      at: Infinity,
    };
    return facts;
  }
  const [subcommand, ...rest] = sub.map((word) => word.text);
  const script = (text: string | undefined, via: string): Inner => ({ kind: "script", text, via });
  if (subcommand === "submodule" && rest.includes("foreach")) {
    const start = sub.findIndex((word) => word.text === "foreach") + 1;
    const words = sub.slice(start).filter((word) => word.text !== "--recursive");
    facts.inner = [script(joinWords(words), "git submodule foreach")];
  } else if (subcommand === "bisect" && rest[0] === "run") {
    facts.inner = [{ kind: "command", words: sub.slice(2), via: "git bisect run" }];
  } else if (subcommand === "rebase" || subcommand === "difftool" || subcommand === "mergetool") {
    const index = optionIndex(sub, ["-x", "--exec", "--extcmd"]);
    if (index >= 0) facts.inner = [script(execValue(sub, index), `git ${subcommand} -x`)];
  } else if (subcommand === "filter-branch" || subcommand === "filter-repo") {
    facts.opaque = { reason: `git ${subcommand} runs filter commands`, at: Infinity };
  } else if (subcommand === "config" && rest.some((text) => GIT_COMMAND_KEYS.test(text))) {
    facts.opaque = { reason: "this git configuration names a program git will run", at: Infinity };
  }
  return facts;
}

function execValue(words: ShellWord[], index: number): string | undefined {
  const word = words[index]!;
  const eq = word.text.indexOf("=");
  if (eq >= 0) return word.dynamic ? undefined : word.text.slice(eq + 1);
  const next = words[index + 1];
  return next && !next.dynamic ? next.text : undefined;
}

import { firstOperand, joinWords, literal, optionValue, programName } from "./options.js";
import type { ShellWord } from "./shell-words.js";

/** Something a command runs in turn. */
export type Inner =
  /** A command given as words (`timeout 5 npm test` runs `npm test`). */
  | { kind: "command"; words: ShellWord[]; via: string; openArgs?: boolean }
  /** Shell code given as text (`bash -c '...'`, `eval`, `watch`); undefined text: only known at run time. */
  | { kind: "script"; text: string | undefined; via: string }
  /** A shell reading its commands from standard input. */
  | { kind: "stdin"; via: string };

/**
 * How a command relates to what it runs.
 * - `transparent`: it only changes how the inner command runs (timeout, nice, env, xargs, bash -c);
 *   the inner command decides.
 * - `elevating`: it runs the inner command as someone else or elsewhere (sudo, ssh); it needs a
 *   rule of its own besides the inner command's.
 * - `command`: an ordinary program (it may still run others, e.g. find -exec).
 */
export type WrapperRole = "transparent" | "elevating" | "command";

export interface Unwrapped {
  role: WrapperRole;
  inner: Inner[];
  /** Variables set for the inner command (`env A=1 cmd`). */
  assignments?: string[];
  /** Files the wrapper itself writes (`time -o file`). */
  writes?: ShellWord[];
}

type Unwrapper = (args: ShellWord[], name: string) => Unwrapped;

const set = (...names: string[]) => new Set(names);
const ORDINARY: Unwrapped = { role: "command", inner: [] };

/** The rest of `args` from `start` as an inner command; nothing when empty. */
function rest(args: ShellWord[], start: number, via: string, openArgs = false): Inner[] {
  const words = args.slice(start);
  return words.length === 0 ? [] : [{ kind: "command", words, via, ...(openArgs ? { openArgs } : {}) }];
}

/** A wrapper with options (those in `valued` take a value), `skip` operands, then the command. */
function simple(valued: Set<string>, skip = 0, role: WrapperRole = "transparent"): Unwrapper {
  return (args, name) => {
    const start = firstOperand(args, valued) + skip;
    return { role, inner: rest(args, start, name) };
  };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function env(args: ShellWord[]): Unwrapped {
  const split = optionValue(args, ["-S", "--split-string"]);
  if (split)
    return { role: "transparent", inner: [{ kind: "script", text: scriptText(split), via: "env -S" }] };
  let i = firstOperand(args, set("-u", "--unset", "-C", "--chdir"));
  const assignments: string[] = [];
  for (; i < args.length && !args[i]!.dynamic && ASSIGNMENT.test(args[i]!.text); i++) {
    assignments.push(args[i]!.text.split("=")[0]!);
  }
  return { role: "transparent", inner: rest(args, i, "env"), assignments };
}

function xargs(args: ShellWord[]): Unwrapped {
  const valued = set("-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter");
  for (const long of ["--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars"]) {
    valued.add(long);
  }
  const start = firstOperand(args, valued);
  // Without a command, xargs runs echo.
  const inner =
    start < args.length ? rest(args, start, "xargs", true) : rest([literal("echo")], 0, "xargs", true);
  return { role: "transparent", inner };
}

function watch(args: ShellWord[]): Unwrapped {
  const start = firstOperand(args, set("-n", "--interval", "-q", "--equexit"));
  const exec = args.slice(0, start).some((word) => word.text === "-x" || word.text === "--exec");
  if (exec) return { role: "transparent", inner: rest(args, start, "watch -x") };
  const words = args.slice(start);
  return { role: "transparent", inner: [{ kind: "script", text: joinWords(words), via: "watch" }] };
}

function flock(args: ShellWord[]): Unwrapped {
  const start = firstOperand(args, set("-w", "--timeout", "-E", "--conflict-exit-code")) + 1;
  const next = args[start];
  if (next && (next.text === "-c" || next.text === "--command")) {
    const script = args[start + 1];
    return {
      role: "transparent",
      inner: [{ kind: "script", text: script && scriptText(script), via: "flock -c" }],
    };
  }
  return { role: "transparent", inner: rest(args, start, "flock") };
}

function time(args: ShellWord[]): Unwrapped {
  const start = firstOperand(args, set("-f", "--format", "-o", "--output"));
  const output = optionValue(args.slice(0, start), ["-o", "--output"]);
  return { role: "transparent", inner: rest(args, start, "time"), ...(output ? { writes: [output] } : {}) };
}

function command(args: ShellWord[]): Unwrapped {
  const start = firstOperand(args, set());
  // `command -v name` only looks the name up.
  const lookup = args.slice(0, start).some((word) => word.text === "-v" || word.text === "-V");
  return { role: "transparent", inner: lookup ? [] : rest(args, start, "command") };
}

function evalWords(args: ShellWord[]): Unwrapped {
  return { role: "transparent", inner: [{ kind: "script", text: joinWords(args), via: "eval" }] };
}

function trap(args: ShellWord[]): Unwrapped {
  const first = args[0];
  if (!first || args.length < 2 || (!first.dynamic && first.text.startsWith("-"))) return ORDINARY;
  return { role: "transparent", inner: [{ kind: "script", text: scriptText(first), via: "trap" }] };
}

const SUDO_VALUED = set(
  ...["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"],
  ...["--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type"],
  ...["--other-user", "--command-timeout"],
);

function sudo(args: ShellWord[]): Unwrapped {
  const start = firstOperand(args, SUDO_VALUED);
  const options = args.slice(0, start).map((word) => word.text);
  if (options.some((text) => text === "-e" || text === "--edit")) {
    return { role: "elevating", inner: [{ kind: "script", text: undefined, via: "sudo -e" }] };
  }
  const viaShell = options.some(
    (text) => /^-[a-zA-Z]*[si]/.test(text) || text === "--shell" || text === "--login",
  );
  if (viaShell && start < args.length) {
    return {
      role: "elevating",
      inner: [{ kind: "script", text: joinWords(args.slice(start)), via: "sudo -s" }],
    };
  }
  return { role: "elevating", inner: rest(args, start, "sudo") };
}

/** `su [options] [user] [-c command]`, `runuser` alike: the command is shell code. */
function su(args: ShellWord[], name: string): Unwrapped {
  const code = optionValue(args, ["-c", "--command", "--session-command"]);
  if (code)
    return { role: "elevating", inner: [{ kind: "script", text: scriptText(code), via: `${name} -c` }] };
  const separator = args.findIndex((word) => word.text === "--");
  if (separator >= 0) return { role: "elevating", inner: rest(args, separator + 1, name) };
  return { role: "elevating", inner: [{ kind: "stdin", via: name }] };
}

const SSH_VALUED = set(..."bcDEeFIiJLlmOoPpQRSWw".split("").map((letter) => `-${letter}`));

function ssh(args: ShellWord[]): Unwrapped {
  const host = firstOperand(args, SSH_VALUED);
  const remote = args.slice(host + 1);
  if (remote.length === 0) return { role: "elevating", inner: [{ kind: "stdin", via: "ssh" }] };
  return { role: "elevating", inner: [{ kind: "script", text: joinWords(remote), via: "ssh" }] };
}

const scriptText = (word: ShellWord): string | undefined => (word.dynamic ? undefined : word.text);

/** `bash -c '...'`, `sh script.sh`, `bash` reading standard input. */
function shell(args: ShellWord[], name: string): Unwrapped {
  const valued = set("-o", "+o", "-O", "+O", "--rcfile", "--init-file");
  const start = firstOperand(args, valued);
  const options = args.slice(0, start);
  const code = options.some((word) => !word.dynamic && /^-[A-Za-z]*c[A-Za-z]*$/.test(word.text));
  if (code) {
    const script = args[start];
    return {
      role: "transparent",
      inner: [{ kind: "script", text: script && scriptText(script), via: `${name} -c` }],
    };
  }
  // A script file is an ordinary program run; without one, the commands come from stdin.
  if (start < args.length) return ORDINARY;
  return { role: "transparent", inner: [{ kind: "stdin", via: name }] };
}

const SHELLS = ["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "fish", "rbash"];

const UNWRAPPERS: Record<string, Unwrapper> = {
  env,
  xargs,
  watch,
  flock,
  time,
  command,
  eval: evalWords,
  trap,
  sudo,
  su,
  runuser: su,
  ssh,
  nohup: simple(set()),
  builtin: simple(set()),
  exec: simple(set("-a")),
  coproc: simple(set()),
  nice: simple(set("-n", "--adjustment")),
  ionice: simple(set("-c", "-n", "-p", "-P", "-u", "--class", "--classdata")),
  stdbuf: simple(set("-i", "-o", "-e", "--input", "--output", "--error")),
  setsid: simple(set()),
  timeout: simple(set("-s", "-k", "--signal", "--kill-after"), 1),
  taskset: simple(set(), 1),
  chronic: simple(set()),
  unbuffer: simple(set()),
  busybox: simple(set()),
  doas: simple(set("-u", "-C"), 0, "elevating"),
  pkexec: simple(set("--user"), 0, "elevating"),
  chroot: simple(set("--userspec", "--groups"), 1, "elevating"),
  unshare: simple(set("-S", "-G", "-R", "-w", "--setuid", "--setgid", "--root", "--wd"), 0, "elevating"),
  nsenter: simple(set("-t", "--target", "-S", "-G", "-r", "-w"), 0, "elevating"),
};
for (const name of SHELLS) UNWRAPPERS[name] = shell;

/** What the command `words` (program first, literally known) runs in turn. */
export function unwrap(words: ShellWord[]): Unwrapped {
  const name = programName(words[0]!);
  const unwrapper = Object.hasOwn(UNWRAPPERS, name) ? UNWRAPPERS[name] : undefined;
  return unwrapper ? unwrapper(words.slice(1), name) : ORDINARY;
}

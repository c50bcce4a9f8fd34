import type { AnalysedCommand, CommandAnalysis } from "./command-analysis.js";
import {
  decideRead,
  decideWrite,
  directoryBase,
  type FileOptions,
  pathOf,
  protectedArgument,
} from "./command-files.js";
import { allow, ask, type Decided, firmAsk } from "./decision.js";
import { programName } from "./options.js";
import { isWithin } from "./paths.js";
import { describeRule, matchCommand, type PermissionRule, ruleApplies } from "./permission-rules.js";
import { checkReadOnlyProgram } from "./read-only-programs.js";

export type { Decided, Decision } from "./decision.js";

export interface CommandVerdictOptions extends FileOptions {
  /** Read-only lines run without asking (`safeCommands`). */
  readOnlyAllowed: boolean;
  /** Every command runs without asking unless a rule says otherwise (`allCommands`). */
  allCommands: boolean;
}

export interface CommandVerdict extends Decided {
  commands: Array<Decided & { text: string; via?: string }>;
  writes: Array<Decided & { path: string }>;
  problems: string[];
}

/** Programs whose arguments are not files, for the outside-the-workspace read check. */
const NO_FILE_ARGUMENTS = new Set("echo printf true false sleep seq : test [ [[ date".split(" "));

/** Decides a whole command line: every simple command and every file it writes must be allowed. */
export function decideCommandLine(analysis: CommandAnalysis, options: CommandVerdictOptions): CommandVerdict {
  const rules = options.rules.filter((rule) => ruleApplies(rule, "execute_command", "command"));
  const base = directoryBase(analysis, options.paths);
  const commands = analysis.commands.map((command, index) => ({
    text: command.text,
    ...(command.via ? { via: command.via } : {}),
    ...decideCommand(command, analysis.commands, index, rules, options, base),
  }));
  const writes = analysis.writes.map((target) => ({
    path: target.text,
    ...decideWrite(target, options, base),
  }));
  const all: Decided[] = [
    ...commands,
    ...writes,
    ...analysis.reads.flatMap((source) => decideRead(source, options, base)),
  ];
  if (analysis.problems.length > 0) all.push(firmAsk(`not understood: ${analysis.problems.join("; ")}`));
  if (commands.length === 0 && analysis.problems.length === 0) all.push(allow("the line runs no command"));
  const verdict =
    all.find((entry) => entry.decision === "deny") ??
    all.find((entry) => entry.decision === "ask" && entry.firm) ??
    all.find((entry) => entry.decision === "ask") ??
    allow(commands.length === 1 ? commands[0]!.reason : "every command in the line is allowed");
  return { ...verdict, commands, writes, problems: analysis.problems };
}

function decideCommand(
  command: AnalysedCommand,
  all: readonly AnalysedCommand[],
  index: number,
  rules: readonly PermissionRule[],
  options: CommandVerdictOptions,
  base: string | undefined,
): Decided {
  for (const action of ["deny", "ask"] as const) {
    for (const rule of rules) {
      if (rule.action !== action || rule.pattern === undefined) continue;
      const match = matchCommand(rule.pattern, command, false);
      if (match === "match" && action === "deny")
        return { decision: "deny", reason: "a deny rule matches", rule: describeRule(rule) };
      if (match === "maybe") {
        const why = `it might be what the ${action} rule ${rule.pattern} names`;
        return { ...firmAsk(why, describeRule(rule)), ...(action === "deny" ? { suspect: true } : {}) };
      }
      if (match === "match") return firmAsk("an ask rule matches", describeRule(rule));
    }
    const whole = rules.find((rule) => rule.action === action && rule.pattern === undefined);
    if (whole)
      return action === "deny"
        ? { decision: "deny", reason: "every command is denied", rule: describeRule(whole) }
        : firmAsk("every command asks", describeRule(whole));
  }
  const touched = protectedArgument(command, options.paths, base);
  const readOnly = readOnlyCheck(command, all, index, options, base);
  if (touched && !readOnly.readOnly) return firmAsk(`it names a protected path: ${touched}`);
  const allowRule = rules.find(
    (rule) =>
      rule.action === "allow" &&
      (rule.pattern === undefined || matchCommand(rule.pattern, command, true) === "match"),
  );
  if (allowRule) return allow("an allow rule matches", describeRule(allowRule));
  if (command.role === "transparent" && !command.opaque && hasChildren(all, index)) {
    return allow(
      `${programName(command.words[0]!)} only runs the commands after it, which are decided on their own`,
    );
  }
  if (readOnly.readOnly)
    return options.readOnlyAllowed
      ? allow("read-only command")
      : ask("read-only commands need approval (safeCommands is off)");
  if (options.allCommands && command.role !== "elevating") return allow("all commands are auto-approved");
  if (command.opaque) return firmAsk(`${command.opaque.reason}; no allow rule names it`);
  if (command.role === "elevating")
    return ask(
      `${programName(command.words[0]!)} runs a command with other rights or elsewhere; no allow rule names it`,
    );
  return ask(readOnly.reason);
}

const hasChildren = (all: readonly AnalysedCommand[], index: number) =>
  all.some((command) => command.parent === index);

function readOnlyCheck(
  command: AnalysedCommand,
  all: readonly AnalysedCommand[],
  index: number,
  options: CommandVerdictOptions,
  base: string | undefined,
): { readOnly: boolean; reason: string } {
  const program = command.words[0]!;
  const name = program.text;
  if (command.opaque) return { readOnly: false, reason: command.opaque.reason };
  if (name.includes("/"))
    return { readOnly: false, reason: `${name}: a program run by path is not in the read-only list` };
  // A wrapper that runs nothing (`command -v x`, `exec 2>&1`) only looks things up; env alone prints secrets.
  if (command.role === "transparent" && !hasChildren(all, index)) {
    return name === "env"
      ? { readOnly: false, reason: "env prints the environment" }
      : { readOnly: true, reason: "" };
  }
  const args = command.readOnlyArgs;
  const open = command.openArgs || args.some((word) => word.glob || word.dynamic);
  const check = checkReadOnlyProgram(
    name,
    args.map((word) => word.text),
    open,
  );
  if (!check.readOnly)
    return { readOnly: false, reason: `no allow rule names it, and it is not read-only: ${check.reason}` };
  if (!options.readOutside && !NO_FILE_ARGUMENTS.has(name)) {
    const outside = args.find(
      (word) =>
        (word.dynamic && !word.text.startsWith("-")) ||
        pathOf(word, options.paths, base, (abs) => !isWithin(options.paths.root, abs)),
    );
    if (outside) {
      const where = outside.dynamic
        ? "a path only known when it runs"
        : `${outside.text}, outside the workspace`;
      return { readOnly: false, reason: `it reads ${where}` };
    }
  }
  return { readOnly: true, reason: "" };
}

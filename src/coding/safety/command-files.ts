import type { AnalysedCommand, CommandAnalysis } from "./command-analysis.js";
import { allow, ask, type Decided, firmAsk } from "./decision.js";
import { absolutePath, isTemporary, isWithin, type PathContext, protectedReason } from "./paths.js";
import { describeRule, matchPath, type PermissionRule, ruleApplies } from "./permission-rules.js";
import type { ShellWord } from "./shell-words.js";

/** The files a command line names, writes and reads, decided as edits and reads of those paths. */
export interface FileOptions {
  rules: readonly PermissionRule[];
  paths: PathContext;
  /** Reads outside the workspace run without asking (`readOutsideWorkspace`). */
  readOutside: boolean;
  /** Writes inside the workspace run without asking (`editInsideWorkspace`). */
  editInside: boolean;
}

/** A literal argument (or `--opt=value` value) naming a protected path, as its text. */
export function protectedArgument(
  command: AnalysedCommand,
  paths: PathContext,
  base: string | undefined,
): string | undefined {
  const touches = (abs: string) => isWithin(paths.root, abs) && protectedReason(paths, abs) !== undefined;
  const inHome = (abs: string) => paths.protectedDirs.some((dir) => isWithin(dir, abs));
  return command.words
    .slice(1)
    .find((word) => pathOf(word, paths, base, (abs) => touches(abs) || inHome(abs)))?.text;
}

/** True when a literal word (or the value after `=` of an option) is a path for which `test` holds. */
export function pathOf(
  word: ShellWord,
  paths: PathContext,
  base: string | undefined,
  test: (abs: string) => boolean,
): boolean {
  if (word.dynamic) return false;
  const value = word.text.startsWith("-") ? word.text.split("=").slice(1).join("=") : word.text;
  if (value === "" || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  const looksLikePath =
    value.startsWith("/") ||
    value.startsWith("~") ||
    value.split("/").includes("..") ||
    value.startsWith(".");
  if (!looksLikePath) return false;
  if (base === undefined && !value.startsWith("/") && !value.startsWith("~")) return test("/");
  return test(absolutePath(paths, value, base));
}

/** Decides a file the line writes, as an edit of that path. */
export function decideWrite(target: ShellWord, options: FileOptions, base: string | undefined): Decided {
  if (target.dynamic) return firmAsk(`it writes to ${target.text}, only known when the line runs`);
  const relative = !target.text.startsWith("/") && !target.text.startsWith("~");
  if (relative && base === undefined)
    return firmAsk(`it writes ${target.text} after changing to a directory only known when it runs`);
  const abs = absolutePath(options.paths, target.text, base);
  const rules = options.rules.filter(
    (rule) => rule.pattern !== undefined && ruleApplies(rule, "write_to_file", "edit"),
  );
  for (const action of ["deny", "ask"] as const) {
    const rule = rules.find(
      (candidate) => candidate.action === action && matchPath(candidate.pattern!, abs, options.paths),
    );
    if (rule && action === "deny")
      return { decision: "deny", reason: `it writes ${abs}`, rule: describeRule(rule) };
    if (rule) return firmAsk(`it writes ${abs}`, describeRule(rule));
  }
  const temporary = !isWithin(options.paths.root, abs) && isTemporary(abs);
  const guarded = temporary ? undefined : protectedReason(options.paths, abs);
  if (guarded) return firmAsk(`it writes a protected path: ${guarded}`);
  const rule = rules.find(
    (candidate) => candidate.action === "allow" && matchPath(candidate.pattern!, abs, options.paths),
  );
  if (rule) return allow(`it writes ${abs}, which an allow rule covers`, describeRule(rule));
  return options.editInside
    ? allow(`it writes ${abs} (edits inside the workspace are auto-approved)`)
    : ask(`it writes ${abs}`);
}

/** A file read through `<`: outside the workspace it asks, unless reads outside are auto-approved. */
export function decideRead(source: ShellWord, options: FileOptions, base: string | undefined): Decided[] {
  if (options.readOutside) return [];
  const outside = (abs: string) => !isWithin(options.paths.root, abs);
  if (
    source.dynamic ||
    pathOf(source, options.paths, base, outside) ||
    (base === undefined && !source.text.startsWith("/"))
  ) {
    return [ask(`it reads ${source.text}, outside the workspace or only known when it runs`)];
  }
  return [];
}

/** Where relative paths of the line point: the workspace, the one directory it changes to, or unknown. */
export function directoryBase(analysis: CommandAnalysis, paths: PathContext): string | undefined {
  let base = paths.root;
  for (const directory of analysis.directories) {
    if (directory.dynamic) return undefined;
    base = absolutePath(paths, directory.text, base);
  }
  return base;
}

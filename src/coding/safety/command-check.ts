import type { CommandCheck } from "../../agent/pipeline/approval-policy.js";
import { analyzeCommandLine, type CommandAnalysis } from "./command-analysis.js";
import { decideCommandLine } from "./command-verdict.js";
import { createPathContext } from "./paths.js";
import { loadedShellParser } from "./shell-parser.js";

/**
 * Analyses a command line with the loaded shell parser. Before `loadShellParser()` has finished
 * the line is reported as not understood, so it needs approval.
 */
export function analyzeCommand(line: string): CommandAnalysis {
  const parser = loadedShellParser();
  if (parser) return analyzeCommandLine(parser, line);
  return {
    line,
    commands: [],
    writes: [],
    reads: [],
    directories: [],
    problems: ["the shell parser is not loaded yet"],
  };
}

/**
 * Whether every command of `line` is on the built-in read-only list with read-only arguments,
 * and the line writes no file and reads nothing outside `workspaceRoot` (plan mode, the
 * `safeCommands` setting). Undefined workspace: paths are not checked.
 */
export function checkReadOnlyLine(line: string, workspaceRoot?: string): CommandCheck {
  const analysis = analyzeCommand(line);
  const verdict = decideCommandLine(analysis, {
    rules: [],
    paths: createPathContext(workspaceRoot ?? "/"),
    readOnlyAllowed: true,
    allCommands: false,
    readOutside: workspaceRoot === undefined,
    editInside: false,
  });
  return verdict.decision === "allow" ? { readOnly: true } : { readOnly: false, reason: verdict.reason };
}

import type { Node } from "web-tree-sitter";
import { programFacts } from "./code-runners.js";
import { literal } from "./options.js";
import { changesWhatRuns, hereDocumentBackticks, stdinOf } from "./shell-input.js";
import type { ShellParser } from "./shell-parser.js";
import { evaluateWord, type ShellWord } from "./shell-words.js";
import { type Inner, unwrap, type WrapperRole } from "./wrappers.js";

/** One simple command a line would run. Word indexes count the program as 0. */
export interface AnalysedCommand {
  /** Program first, as written (after quote removal). */
  words: ShellWord[];
  /** The words rules are matched against (git without its global options). */
  matchWords: ShellWord[];
  /** Arguments for the read-only check. */
  readOnlyArgs: ShellWord[];
  text: string;
  role: WrapperRole;
  /** The command that runs this one (a wrapper, `bash -c`, `find -exec`), and how. */
  parent?: number;
  via?: string;
  /** More arguments are added when it runs (xargs, find -exec). */
  openArgs: boolean;
  /** It runs code the analyser cannot see; an allow rule must spell out the words up to `at`. */
  opaque?: { reason: string; at: number };
}

export interface CommandAnalysis {
  line: string;
  commands: AnalysedCommand[];
  /** Files written by redirections (`> f`, `>> f`, `&> f`) and by wrappers (`time -o f`). */
  writes: ShellWord[];
  /** Files read by redirections (`< f`). */
  reads: ShellWord[];
  /** Directories changed to (`cd x`), which move where relative paths point. */
  directories: ShellWord[];
  /** What the analyser did not understand; any problem means the line needs approval. */
  problems: string[];
}

const MAX_DEPTH = 4;

/** Splits `line` into every simple command it would run, recursively through shell code in strings. */
export function analyzeCommandLine(parser: ShellParser, line: string): CommandAnalysis {
  const analysis: CommandAnalysis = {
    line,
    commands: [],
    writes: [],
    reads: [],
    directories: [],
    problems: [],
  };
  analyzeInto(parser, line, analysis, undefined, 0);
  return analysis;
}

interface Parent {
  index: number;
  via: string;
}

function analyzeInto(
  parser: ShellParser,
  text: string,
  analysis: CommandAnalysis,
  parent: Parent | undefined,
  depth: number,
): void {
  if (depth > MAX_DEPTH) {
    analysis.problems.push(`shell code is nested more than ${MAX_DEPTH} levels deep`);
    return;
  }
  const walker = new Walker(parser, analysis, parent, depth);
  const parsed = parser.parse(text, (root) => {
    walker.visit(root);
    return true;
  });
  if (parsed === undefined) analysis.problems.push("the shell parser gave up on this line");
  // Bash joins lines ended by an unescaped backslash before it splits words (`r\<newline>m`
  // runs rm), except in quoted here-documents; the grammar does not. Both readings are
  // analysed, so whichever the shell takes is covered.
  const joined = text.includes("\\\n") ? text.replace(/(?<!\\)((?:\\\\)*)\\\n/g, "$1") : text;
  if (joined !== text) analyzeInto(parser, joined, analysis, parent, depth);
}

/** Structure and word nodes that hold nothing to decide on besides their children. */
const TRANSPARENT_NODES = new Set(
  (
    "program list pipeline subshell compound_statement redirected_statement negated_command if_statement " +
    "elif_clause else_clause while_statement for_statement c_style_for_statement do_group case_statement " +
    "case_item function_definition comment command_name word number string string_content raw_string " +
    "ansi_c_string translated_string concatenation simple_expansion expansion variable_name " +
    "special_variable_name command_substitution process_substitution arithmetic_expansion binary_expression " +
    "unary_expression postfix_expression parenthesized_expression ternary_expression test_operator " +
    "extglob_pattern regex file_descriptor heredoc_redirect herestring_redirect heredoc_start heredoc_body " +
    "heredoc_content heredoc_end array subscript brace_expression variable_assignments unset_command"
  ).split(" "),
);

const WRITE_OPERATORS = new Set([">", ">>", ">|", "&>", "&>>"]);
const NOT_FILES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
/** A subscript holding a command substitution: arithmetic evaluation would run it. */
const SUBSCRIPT_CODE = /\[[^\]]*(\$\(|`)/;

class Walker {
  constructor(
    private readonly parser: ShellParser,
    private readonly analysis: CommandAnalysis,
    private readonly parent: Parent | undefined,
    private readonly depth: number,
  ) {}

  visit(node: Node): void {
    if (node.type === "ERROR" || node.isMissing) {
      this.problem(`cannot parse ${JSON.stringify(node.text.slice(0, 40) || node.type)}`);
      return;
    }
    switch (node.type) {
      case "command":
        this.command(node);
        break;
      case "declaration_command":
      case "variable_assignment":
        this.assignments(node);
        break;
      case "test_command":
        this.add([literal(node.text.startsWith("((") ? "((" : "[[")], node.text, []);
        this.children(node);
        break;
      case "file_redirect":
        this.redirect(node);
        this.children(node);
        break;
      case "heredoc_redirect":
        this.heredocBackticks(node);
        this.children(node);
        break;
      case "raw_string":
      case "string_content":
        if (SUBSCRIPT_CODE.test(node.text))
          this.problem("text with a subscript holding a command substitution");
        break;
      default:
        if (node.isNamed && !TRANSPARENT_NODES.has(node.type)) this.problem(`not understood: ${node.type}`);
        else this.children(node);
    }
  }

  private children(node: Node): void {
    for (const child of node.children) if (child) this.visit(child);
  }

  private problem(text: string): void {
    this.analysis.problems.push(text);
  }

  private command(node: Node): void {
    const name = node.childForFieldName("name");
    const assigned: string[] = [];
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === "variable_assignment") {
        assigned.push(child.childForFieldName("name")?.text ?? "");
        const value = child.childForFieldName("value");
        if (value) this.visit(value);
      } else {
        this.visit(child);
      }
    }
    if (!name) return;
    const words = [evaluateWord(name), ...node.childrenForFieldName("argument").map(evaluateWord)];
    this.add(words, node.text, assigned, stdinOf(node));
  }

  /** `A=1`, `export A=1 B`: only variables that change what runs are worth a decision. */
  private assignments(node: Node): void {
    const assignments = node.type === "variable_assignment" ? [node] : node.namedChildren;
    for (const assignment of assignments) {
      if (assignment?.type !== "variable_assignment") continue;
      const name = assignment.childForFieldName("name")?.text ?? "";
      if (changesWhatRuns(name)) {
        const index = this.add([literal(assignment.text)], assignment.text, []);
        this.analysis.commands[index]!.opaque = {
          reason: `sets ${name}, which changes what runs`,
          at: Infinity,
        };
      }
    }
    this.children(node);
  }

  /** The grammar leaves backticks in an unquoted here-document as text; the shell runs them. */
  private heredocBackticks(node: Node): void {
    for (const script of hereDocumentBackticks(node)) {
      analyzeInto(this.parser, script, this.analysis, this.parent, this.depth + 1);
    }
  }

  private redirect(node: Node): void {
    const operator = node.children.find((child) => child && !child.isNamed)?.type ?? "";
    const destination = node.childForFieldName("destination");
    if (!destination) return;
    const target = evaluateWord(destination);
    const fd = destination.type === "number" || target.text === "-";
    const writes = WRITE_OPERATORS.has(operator) || (operator === ">&" && !fd);
    const file = target.dynamic || !NOT_FILES.test(target.text);
    if (writes && file) this.analysis.writes.push(target);
    else if ((operator === "<" || (operator === "<&" && !fd)) && file) this.analysis.reads.push(target);
  }

  /** Records a command and what it runs in turn; returns its index. */
  private add(
    words: ShellWord[],
    text: string,
    assigned: string[],
    stdin?: string,
    from = this.parent,
  ): number {
    const command: AnalysedCommand = {
      words,
      matchWords: words,
      readOnlyArgs: words.slice(1),
      text,
      role: "command",
      openArgs: false,
      ...(from ? { parent: from.index, via: from.via } : {}),
    };
    const index = this.analysis.commands.push(command) - 1;
    if (words[0]!.dynamic) {
      command.opaque = { reason: "the program is only known when the line runs", at: Infinity };
      return index;
    }
    const unwrapped = unwrap(words);
    command.role = unwrapped.role;
    this.analysis.writes.push(...(unwrapped.writes ?? []));
    const dangerous = [...assigned, ...(unwrapped.assignments ?? [])].find((name) => changesWhatRuns(name));
    if (dangerous) command.opaque = { reason: `sets ${dangerous}, which changes what runs`, at: Infinity };
    const facts = programFacts(words);
    if (facts.matchWords) command.matchWords = facts.matchWords;
    if (facts.readOnlyArgs) command.readOnlyArgs = facts.readOnlyArgs;
    if (facts.opaque && !command.opaque) command.opaque = facts.opaque;
    if (["cd", "pushd"].includes(words[0]!.text)) this.analysis.directories.push(words[1] ?? literal("~"));
    for (const inner of [...unwrapped.inner, ...(facts.inner ?? [])]) this.inner(inner, index, stdin);
    return index;
  }

  private inner(inner: Inner, index: number, stdin: string | undefined): void {
    const owner = this.analysis.commands[index]!;
    const from = { index, via: inner.via };
    if (inner.kind === "command") {
      if (inner.words.length === 0) return;
      const text = inner.words.map((word) => word.text).join(" ");
      // The inner command inherits what the wrapper reads (`sudo bash <<EOF`).
      const child = this.add(inner.words, text, [], stdin, from);
      if (inner.openArgs) this.analysis.commands[child]!.openArgs = true;
      return;
    }
    const text = inner.kind === "script" ? inner.text : stdin;
    if (text === undefined) {
      const what =
        inner.kind === "script" ? "shell code only known when the line runs" : "commands from its input";
      owner.opaque ??= { reason: `${inner.via} runs ${what}`, at: Infinity };
      return;
    }
    analyzeInto(this.parser, text, this.analysis, from, this.depth + 1);
  }
}

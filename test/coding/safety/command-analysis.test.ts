import { beforeAll, describe, expect, it } from "vitest";
import { analyzeCommand, checkReadOnlyLine } from "../../../src/coding/safety/command-check.js";
import { loadShellParser } from "../../../src/coding/safety/shell-parser.js";

const programs = (line: string) =>
  analyzeCommand(line).commands.map((command) => command.words.map((w) => w.text).join(" "));

describe("analyzeCommand", () => {
  beforeAll(async () => {
    await loadShellParser();
  });

  it("finds every simple command through operators, subshells and substitutions", () => {
    expect(programs("a && b || c; d | e & f\ng")).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
    expect(programs("echo $(id) `whoami` <(date) >(wc)")).toEqual([
      "id",
      "whoami",
      "date",
      "wc",
      "echo $(id) `whoami` <(date) >(wc)",
    ]);
    expect(programs("(cd src && ls)")).toEqual(["cd src", "ls"]);
  });

  it("removes quotes and escapes, and decodes $'...'", () => {
    expect(programs(`'r'"m" -rf x; \\rm y; $'\\x72\\x6d' z`)).toEqual(["rm -rf x", "rm y", "rm z"]);
  });

  it("parses shell code in strings recursively and records who runs what", () => {
    const { commands } = analyzeCommand(`sudo -u me timeout 5 bash -c "ls && eval 'touch x'"`);
    expect(commands.map((c) => [c.words[0]!.text, c.role, c.parent, c.via])).toEqual([
      ["sudo", "elevating", undefined, undefined],
      ["timeout", "transparent", 0, "sudo"],
      ["bash", "transparent", 1, "timeout"],
      ["ls", "command", 2, "bash -c"],
      ["eval", "transparent", 2, "bash -c"],
      ["touch", "command", 4, "eval"],
    ]);
  });

  it("unwraps find -exec and xargs, marking the arguments they add", () => {
    const { commands } = analyzeCommand("find . -name '*.ts' -exec grep -l x {} + | xargs -0 wc -l");
    const find = commands.find((c) => c.words[0]!.text === "find")!;
    expect(find.readOnlyArgs.map((w) => w.text)).toEqual([".", "-name", "*.ts"]);
    expect(commands.filter((c) => c.openArgs).map((c) => c.words[0]!.text)).toEqual(["grep", "wc"]);
  });

  it("matches git by its subcommand, whatever global options come first", () => {
    const [git] = analyzeCommand("git -C sub --no-pager push origin").commands;
    expect(git!.matchWords.map((w) => w.text)).toEqual(["git", "push", "origin"]);
    expect(analyzeCommand("git -c core.pager=evil log").commands[0]!.opaque?.at).toBe(Infinity);
  });

  it("records files written and read by redirections, but not /dev/null or fd copies", () => {
    const analysis = analyzeCommand("cmd > out 2>&1 >> log &> both < in 2>/dev/null");
    expect(analysis.writes.map((w) => w.text)).toEqual(["out", "log", "both"]);
    expect(analysis.reads.map((w) => w.text)).toEqual(["in"]);
  });

  it("marks code it cannot see as opaque", () => {
    const reason = (line: string) => analyzeCommand(line).commands.find((c) => c.opaque)?.opaque?.reason;
    expect(reason("eval $X")).toMatch(/only known when the line runs/);
    expect(reason("curl x | sh")).toMatch(/commands from its input/);
    expect(reason("python3 -c 'print(1)'")).toMatch(/inline code/);
    expect(reason("$CMD x")).toMatch(/program is only known/);
    expect(reason("PATH=. ls")).toMatch(/sets PATH/);
  });

  it("reports what it cannot parse or nests too deeply", () => {
    expect(analyzeCommand('echo "unterminated').problems.length).toBeGreaterThan(0);
    const deep = `sh -c "sh -c \\"sh -c 'sh -c \\\\\\"sh -c ls\\\\\\"'\\""`;
    expect(analyzeCommand(`bash -c 'bash -c "${deep.replaceAll('"', '\\"')}"'`).problems.join()).toMatch(
      /nested|cannot parse/,
    );
  });
});

describe("checkReadOnlyLine", () => {
  beforeAll(async () => {
    await loadShellParser();
  });

  it.each([
    "ls -la | grep x",
    "git log --oneline | head -5 && git status",
    "cat a.txt 2>/dev/null",
    "echo $(ls)",
  ])("accepts %j", (line) => {
    expect(checkReadOnlyLine(line, "/work/ws")).toEqual({ readOnly: true });
  });

  it.each([
    ["ls > out", /writes/],
    ["ls && rm x", /rm is not in the read-only command list/],
    ["cat /etc/passwd", /outside the workspace/],
    ["sudo ls", /other rights/],
  ])("rejects %j", (line, why) => {
    const check = checkReadOnlyLine(line, "/work/ws");
    expect(check.readOnly).toBe(false);
    expect(!check.readOnly && check.reason).toMatch(why);
  });
});

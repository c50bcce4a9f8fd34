import { describe, expect, it } from "vitest";
import { checkReadOnlyCommand } from "../../../src/coding/approvals/read-only-command.js";

const readOnly = (command: string) => checkReadOnlyCommand(command).readOnly;
const reason = (command: string) => {
  const check = checkReadOnlyCommand(command);
  return check.readOnly ? undefined : check.reason;
};

describe("checkReadOnlyCommand", () => {
  it.each([
    "ls -la",
    "  ls  ",
    "cat src/a.ts",
    "head -n 20 README.md",
    "tail -5 log.txt",
    "wc -l *.ts",
    "pwd",
    "echo hello world",
    "grep -rn 'a|b' src",
    'grep -n "end" file.txt',
    "grep -n 'end$' file.txt",
    "rg -n TODO src",
    "rg TODO -g '*.ts'",
    "find . -name '*.ts' -type f",
    "git status",
    "git --no-pager log --oneline -5",
    "git log -p -- src/a.ts",
    "git diff HEAD~1",
    "git show HEAD:src/a.ts",
    "git branch",
    "git branch -a -v",
    "git branch --show-current",
    "git branch --list 'feat/*'",
    "git --version",
    "node --version",
    "npm -v",
    "python3 -V",
    "ls my\\ file",
  ])("accepts %s", (command) => {
    expect(checkReadOnlyCommand(command)).toEqual({ readOnly: true });
  });

  it.each([
    ["rm -rf x", /rm is not in the read-only command list/],
    ["cat a > b", /redirects output/],
    ["cat < a", /redirects input/],
    ["ls; rm -rf x", /chains commands/],
    ["ls && rm x", /&/],
    ["ls | xargs rm", /pipes/],
    ["echo $(rm x)", /\$/],
    ["echo `rm x`", /`/],
    ['echo "$HOME"', /double quotes/],
    ["(ls)", /subshell/],
    ["ls\nrm x", /several lines/],
    ["ls 'unterminated", /unbalanced/],
    ["ls # comment", /comment/],
    ["FOO=1 ls", /environment/],
    ["./ls", /by path/],
    ["/bin/ls", /by path/],
    ["l* -la", /not in the read-only command list/],
    ["find . -delete", /-delete/],
    ["find . -name x -exec rm {} +", /-exec/],
    ["find *", /globs/],
    ["rg --pre=./x.sh foo", /--pre/],
    ["rg foo *.ts", /globs/],
    ["git push", /not a read-only git command/],
    ["git commit -m x", /not a read-only git command/],
    ["git -c core.pager=evil log", /before the subcommand/],
    ["git", /subcommand/],
    ["git diff --output=patch.txt", /--output/],
    ["git diff --outp=patch.txt", /--output/],
    ["git log --ext-diff", /--ext-diff/],
    ["git branch new-feature", /creates a branch/],
    ["git branch -D main", /not a listing option/],
    ["git branch -vd main", /not a listing option/],
    ["git branch --delete main", /not a listing option/],
    ["node script.js", /version query/],
    ["npm install", /version query/],
    ["", /empty/],
  ])("rejects %j", (command, why) => {
    expect(readOnly(command)).toBe(false);
    expect(reason(command)).toMatch(why);
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_APPROVAL_SETTINGS } from "../../../src/agent/pipeline/approval-policy.js";
import { decidePermission } from "../../../src/coding/safety/permission-policy.js";
import { loadShellParser } from "../../../src/coding/safety/shell-parser.js";
import { createExecuteCommandTool } from "../../../src/coding/tools/execute-command.js";
import { createTempWorkspace, type TempWorkspace } from "../temp-workspace.js";
import { callThroughPolicy } from "./command-modes.js";
import { CORPUS_RULES } from "./corpus-rules.js";

/**
 * Lines that would create the file `pwned` in the workspace if they ran. Each goes through the
 * real tool executor (policy, approval) to the real execute_command and a real shell; the file
 * must not exist afterwards.
 */
const WRITERS = [
  "echo x > pwned",
  "ls && touch pwned",
  "ls; exec touch pwned",
  "true\ntouch pwned",
  'bash -c "touch pwned"',
  'sh <<< "touch pwned"',
  "echo 'touch pwned' | bash",
  'eval "touch pwned"',
  "eval $(echo dG91Y2ggcHduZWQ= | base64 -d)",
  "env touch pwned",
  "timeout 5 touch pwned",
  "echo pwned | xargs touch",
  "find . -maxdepth 0 -exec touch pwned \\;",
  "find . -maxdepth 0 -fprint pwned",
  "python3 -c \"open('pwned','w')\"",
  "node -e \"require('fs').writeFileSync('pwned','')\"",
  "echo $(touch pwned)",
  "cat <(touch pwned)",
  "cat <<EOF\n$(touch pwned)\nEOF",
  "git -c alias.x='!touch pwned' x",
  "sed -n '1e touch pwned' README.md",
  "sort -o pwned README.md",
  "tee pwned < README.md",
  "cp README.md pwned",
  "ls >| pwned",
  "t\\\nouch pwned",
];

/** Lines a deny rule stops (rm, and edits of .env), through wrappers and shells. */
const DESTROYERS = [
  "rm -rf victim",
  "env rm -rf victim",
  'bash -c "rm -rf victim"',
  "echo victim | xargs rm -rf",
  "find . -maxdepth 1 -name victim -exec rm -rf {} +",
  "timeout 5 nice rm -rf victim",
  "r\\\nm -rf victim",
  "echo oops > .env",
  "cat README.md >> .env",
];

describe("lines that are not allowed never run (real executor, real shell)", () => {
  let temp: TempWorkspace;
  let asked = 0;
  beforeAll(async () => {
    await loadShellParser();
    temp = await createTempWorkspace();
  });
  afterAll(() => temp.remove());
  beforeEach(async () => {
    fs.rmSync(path.join(temp.root, "pwned"), { force: true });
    fs.rmSync(path.join(temp.root, "allowed-marker"), { force: true });
    await temp.write({ "README.md": "hello\n", "victim/keep.txt": "keep\n", ".env": "TOKEN=abc123secret\n" });
    asked = 0;
  });

  /** Runs `command` as a model's call would: policy, then (if allowed) the real tool. */
  async function run(command: string, options: { interactive: boolean; yolo?: boolean }) {
    const tool = createExecuteCommandTool({ workspace: temp.workspace, inputWaitMs: 0 });
    const settings = { ...DEFAULT_APPROVAL_SETTINGS, safeCommands: true, yolo: options.yolo ?? false };
    return callThroughPolicy({
      tool,
      input: { command },
      decide: (handler, input) =>
        decidePermission({ settings, rules: CORPUS_RULES, workspace: temp.workspace }, handler, input),
      interactive: options.interactive,
      yes: options.yolo,
      approve: () => {
        asked++;
        return false;
      },
    });
  }

  const exists = (name: string) => fs.existsSync(path.join(temp.root, name));

  it("runs an allowed line for real (the harness is not a no-op)", async () => {
    const { text } = await run("touch allowed-marker && ls", { interactive: false });
    expect(exists("allowed-marker")).toBe(true);
    expect(text).toMatch(/exited with code 0/);
  });

  it.each(WRITERS)("non-interactive: %j is denied and pwned is absent", async (command) => {
    const { outcome, text } = await run(command, { interactive: false });
    expect(outcome.result.isError).toBe(true);
    expect(text).toMatch(/^Denied/);
    expect(exists("pwned")).toBe(false);
  });

  it.each(WRITERS)("interactive: %j asks, the person says no, pwned is absent", async (command) => {
    const { outcome } = await run(command, { interactive: true });
    expect(asked).toBe(1);
    expect(outcome.rejected).toBe(true);
    expect(exists("pwned")).toBe(false);
  });

  it.each(DESTROYERS)("a deny rule stops %j, even under YOLO", async (command) => {
    for (const yolo of [false, true]) {
      const { text } = await run(command, { interactive: true, yolo });
      expect(text).toMatch(/^Denied by the rule deny (execute_command\(rm\)|edit\(\.env\))/);
      expect(asked).toBe(0);
      expect(fs.readFileSync(path.join(temp.root, "victim/keep.txt"), "utf8")).toBe("keep\n");
      expect(fs.readFileSync(path.join(temp.root, ".env"), "utf8")).toBe("TOKEN=abc123secret\n");
    }
  });
});

/**
 * `bowline permissions explain "<command line>" [--json]`: the simple commands a line would run,
 * what decided each (a rule, the read-only list, a protected path), and the verdict, under the
 * settings of the current directory's workspace.
 */
import { parseArgs } from "node:util";
import { ApprovalSettingsError } from "../../coding/approvals/approval-settings.js";
import { createPermissionDecider, loadPermissionSetup } from "../../coding/safety/permission-setup.js";
import { projectTrustSubject, recordProjectTrust } from "../../coding/safety/project-trust.js";
import { loadShellParser } from "../../coding/safety/shell-parser.js";
import { bowlineHome } from "../../coding/session/paths.js";
import { createExecuteCommandTool } from "../../coding/tools/execute-command.js";
import { createWorkspace } from "../../coding/workspace.js";
import type { Env } from "../../llm/config.js";

export const PERMISSIONS_HELP = `Usage:
  bowline permissions explain "<command line>" [--json]
      the simple commands the line would run, the rule that decided each, and the verdict
      (allow, ask or deny) under this workspace's settings; --json prints one JSON object
  bowline permissions trust | distrust
      use (or ignore) this project's hooks, MCP servers and allow rules; asked again when they change`;

export interface PermissionsIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: PermissionsIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/**
 * Runs `bowline permissions ...` (`argv`: the arguments after `permissions`) in `cwd`. Exit codes:
 * 0 explained, 1 the settings are broken, 2 usage errors.
 */
export async function runPermissionsCommand(
  argv: string[],
  cwd: string,
  env: Env,
  io: PermissionsIo = processIo,
): Promise<number> {
  let values: { json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    }));
  } catch (error) {
    io.err(`bowline permissions: ${(error as Error).message}\n${PERMISSIONS_HELP}`);
    return 2;
  }
  if (values.help) {
    io.out(PERMISSIONS_HELP);
    return 0;
  }
  const [subcommand, line, ...extra] = positionals;
  if ((subcommand === "trust" || subcommand === "distrust") && line === undefined) {
    const subject = projectTrustSubject(createWorkspace(cwd).root);
    if (!subject) {
      io.out("This project's settings add no hooks, MCP servers or allow rules: nothing to trust.");
      return 0;
    }
    recordProjectTrust(bowlineHome(env), subject, subcommand === "trust");
    io.out(
      subcommand === "trust"
        ? "This project's settings are trusted."
        : "This project's settings are ignored.",
    );
    return 0;
  }
  if (subcommand !== "explain" || line === undefined || extra.length > 0) {
    io.err(PERMISSIONS_HELP);
    return 2;
  }
  const workspace = createWorkspace(cwd);
  let setup: Awaited<ReturnType<typeof loadPermissionSetup>>;
  try {
    setup = await loadPermissionSetup({ home: bowlineHome(env), workspace });
  } catch (error) {
    if (!(error instanceof ApprovalSettingsError)) throw error;
    io.err(`bowline permissions: ${error.message}`);
    return 1;
  }
  const tool = createExecuteCommandTool({ workspace, ...(setup.sandbox ? { sandbox: setup.sandbox } : {}) });
  await loadShellParser(); // the grammar the rules read the line with
  const verdict = createPermissionDecider(setup)(tool, { command: line });
  const commands = verdict.command?.commands ?? [];
  const writes = verdict.command?.writes ?? [];
  const problems = verdict.command?.problems ?? [];
  if (values.json) {
    io.out(
      JSON.stringify({
        line,
        verdict: verdict.decision,
        reason: verdict.reason,
        ...(verdict.rule ? { rule: verdict.rule } : {}),
        commands: commands.map(({ text, via, decision, reason, rule }) => ({
          text,
          via,
          decision,
          reason,
          rule,
        })),
        writes: writes.map(({ path, decision, reason, rule }) => ({ path, decision, reason, rule })),
        problems,
        sandbox: setup.sandboxNote,
      }),
    );
    return 0;
  }
  io.out(`Command line: ${line}`);
  if (commands.length === 0) io.out("  (no commands)");
  commands.forEach((command, index) => {
    const via = command.via ? ` (run by ${command.via})` : "";
    io.out(`  ${index + 1}. ${command.text}${via}`);
    io.out(`     ${command.decision}: ${command.reason}${command.rule ? ` [${command.rule}]` : ""}`);
  });
  for (const write of writes) {
    io.out(`  writes ${write.path}`);
    io.out(`     ${write.decision}: ${write.reason}${write.rule ? ` [${write.rule}]` : ""}`);
  }
  for (const problem of problems) io.out(`  not understood: ${problem}`);
  io.out(`Verdict: ${verdict.decision} (${verdict.reason}${verdict.rule ? `; ${verdict.rule}` : ""})`);
  io.out(setup.sandboxNote);
  return 0;
}

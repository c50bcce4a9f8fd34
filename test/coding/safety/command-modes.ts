import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCoordinator } from "../../../src/agent/pipeline/coordinator.js";
import type { ToolHandler } from "../../../src/agent/tool.js";
import { createToolExecutor } from "../../../src/agent/tool-executor.js";
import { createUiMessageLog } from "../../../src/agent/ui-messages.js";
import { createNonInteractivePolicy } from "../../../src/coding/approval-rules.js";
import { type ComposeOptions, composeApprovalPolicy } from "../../../src/coding/safety/permission-policy.js";
import { type CommandSandbox, detectSandbox } from "../../../src/coding/safety/sandbox.js";
import { canShareNetwork, startSharedNetwork } from "../../../src/coding/safety/sandbox-network.js";
import { REPO_ROOT } from "../../support/cli.js";

/** One way the command tests run commands: directly, or in the bubblewrap sandbox. */
export interface CommandMode {
  name: string;
  /** The sandbox for a workspace, or undefined to run commands directly. */
  sandbox(workspaceRoot: string): CommandSandbox | undefined;
}

const probe = await detectSandbox();
const bwrapWorks = probe.available;
// As sessions run them by default: without network, sharing one localhost.
const sharedLoopback =
  probe.available && canShareNetwork() && (await startSharedNetwork(probe.bwrapPath)) !== undefined;

/**
 * Every command feature is tested both ways where bubblewrap works; sandbox.test.ts fails where
 * it does not on Linux, so the sandboxed half cannot go missing unnoticed.
 */
export const COMMAND_MODES: CommandMode[] = [
  { name: "unsandboxed", sandbox: () => undefined },
  ...(bwrapWorks
    ? [
        {
          name: "in the bubblewrap sandbox",
          sandbox: (workspaceRoot: string): CommandSandbox => ({
            mode: "workspace-write",
            network: false,
            workspaceRoot,
            sharedLoopback,
          }),
        },
      ]
    : []),
];

/** A token no other test uses, to find the processes of one command from outside. */
export function uniqueToken(): string {
  return `bowline-test-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Live processes (zombies excluded) whose command line contains `token`, found in the host's
 * /proc: unlike `$!` inside the sandbox, this sees through its PID namespace.
 */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, "utf8");
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (cmdline.includes(token) && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z")
        found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

export async function waitUntil(condition: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

/** The directories every sandboxed command may write. */
const TEMP_DIRS = ["/tmp", "/var/tmp", os.tmpdir()];

/**
 * A fresh directory outside everything the sandbox leaves writable (temp directories), for
 * markers that must stay absent: under the home directory, or else this repository (tests may
 * run with HOME in a temp directory). Remove it after use.
 */
export function createOutsideDir(): string {
  const candidates = [os.homedir(), REPO_ROOT];
  const base = candidates.find((dir) =>
    TEMP_DIRS.every((temp) => path.relative(fs.realpathSync(temp), fs.realpathSync(dir)).startsWith("..")),
  );
  if (!base) throw new Error(`no directory outside the temp directories among ${candidates.join(", ")}`);
  return fs.mkdtempSync(path.join(base, ".bowline-sandbox-test-"));
}

/**
 * Runs one execute_command call as a model's would: the permission rules (`decide`), then the
 * host's answer as the CLI gives it (a run nobody watches denies, an interactive one asks
 * `approve`), then, if allowed, the real tool through the real executor.
 */
export async function callThroughPolicy(options: {
  tool: ToolHandler;
  input: unknown;
  decide: ComposeOptions["decide"];
  interactive: boolean;
  /** `--yes`. */
  yes?: boolean;
  /** The person's answer when asked. */
  approve(): boolean;
}) {
  const coordinator = createCoordinator();
  coordinator.register(options.tool);
  const cliPolicy = createNonInteractivePolicy({ yes: options.yes ?? false, allow: [] });
  const policy = composeApprovalPolicy({
    decide: options.decide,
    host: (handler, input) => {
      const decision = cliPolicy(handler, input);
      return options.interactive && decision.type === "deny" ? { type: "ask" } : decision;
    },
    interactive: options.interactive,
  });
  const executor = createToolExecutor({
    taskId: "task",
    coordinator,
    policy,
    ui: createUiMessageLog(() => {}),
    signal: new AbortController().signal,
    requestApproval: async () => ({ approved: options.approve() }),
    askUser: async () => "",
  });
  const outcome = await executor.execute({ id: "call", name: options.tool.name, input: options.input });
  const text = outcome.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return { outcome, text };
}

import type { ApprovalSettings } from "../../agent/pipeline/approval-policy.js";
import { approvalSettingsFiles, loadApprovalSettings } from "../approvals/approval-settings.js";
import type { Workspace } from "../workspace.js";
import {
  decidePermission,
  type PermissionPolicyOptions,
  type PermissionVerdict,
} from "./permission-policy.js";
import type { PermissionRule } from "./permission-rules.js";
import type { SandboxSettings } from "./permission-settings.js";
import {
  projectTrustSubject,
  readProjectTrust,
  type TrustDecision,
  type TrustSubject,
} from "./project-trust.js";
import { type CommandSandbox, detectSandbox } from "./sandbox.js";
import { loadShellParser } from "./shell-parser.js";

/** Everything the permission policy and the command tool need, loaded once per session. */
export interface PermissionSetup {
  settings: ApprovalSettings;
  rules: PermissionRule[];
  sandboxSettings: SandboxSettings;
  /** The sandbox to run commands in; undefined when it is off or unavailable. */
  sandbox?: CommandSandbox;
  /** One line for the person: how commands run (sandboxed, or why not). */
  sandboxNote: string;
  /** Project settings ignored (a project cannot loosen the user's), one line each. */
  ignored: string[];
  /** Set when the project's settings add hooks, MCP servers or allow rules. */
  trust?: { subject: TrustSubject; decision: TrustDecision };
  /** `decidePermission` options for this setup. */
  policyOptions: PermissionPolicyOptions;
}

export interface PermissionSetupOptions {
  home: string;
  workspace: Workspace;
  /** Overrides the remembered trust answer (e.g. the person was just asked). */
  projectTrusted?: boolean;
  /** Approve everything not denied (`--yes`). */
  yolo?: boolean;
}

/**
 * Loads the shell parser, the settings files, the project trust answer and the sandbox probe,
 * in parallel. Throws `ApprovalSettingsError` for broken settings, and when the shell parser
 * cannot load (a broken install).
 */
export async function loadPermissionSetup(options: PermissionSetupOptions): Promise<PermissionSetup> {
  const root = options.workspace.root;
  const subject = projectTrustSubject(root);
  const decision = subject ? readProjectTrust(options.home, subject) : undefined;
  const projectTrusted = options.projectTrusted ?? decision === "trusted";
  const [loaded, availability] = await Promise.all([
    loadApprovalSettings(approvalSettingsFiles(options.home, root), projectTrusted),
    detectSandbox(),
    loadShellParser(),
  ]);
  const settings = { ...loaded.settings, yolo: loaded.settings.yolo || options.yolo === true };
  const sandboxSettings = loaded.permissions.sandbox;
  // Opt-in for now: background commands, input-wait detection and process-group kills are not
  // yet reliable under bwrap (see the issue 8 note).
  const mode = sandboxSettings.mode ?? "off";
  let sandbox: CommandSandbox | undefined;
  let sandboxNote: string;
  if (mode === "off") {
    sandboxNote = availability.available
      ? "Commands run without a sandbox (set sandbox.mode to workspace-write in approvals.json to use bubblewrap)."
      : `Commands run without a sandbox: ${availability.reason}. Commands that are not read-only ask first.`;
  } else if (!availability.available) {
    sandboxNote = `The sandbox (${mode}) is unavailable: ${availability.reason}. Commands run without it, and those that are not read-only ask first.`;
  } else {
    sandbox = {
      mode,
      network: sandboxSettings.network,
      workspaceRoot: root,
      writable: sandboxSettings.writable,
      hidden: [options.home],
      bwrapPath: availability.bwrapPath,
    };
    sandboxNote = `Commands run in a ${mode} sandbox${sandboxSettings.network ? "" : " without network"}.`;
  }
  const policyOptions: PermissionPolicyOptions = {
    settings,
    rules: loaded.permissions.rules,
    workspace: options.workspace,
    protectedDirs: [options.home],
    sandbox: { active: sandbox !== undefined, autoApprove: sandboxSettings.autoApprove },
  };
  return {
    settings,
    rules: loaded.permissions.rules,
    sandboxSettings,
    ...(sandbox ? { sandbox } : {}),
    sandboxNote,
    ignored: loaded.ignored,
    ...(subject ? { trust: { subject, decision: decision ?? "unknown" } } : {}),
    policyOptions,
  };
}

/** Decides calls under a loaded setup (see `decidePermission`). */
export function createPermissionDecider(setup: PermissionSetup) {
  return (
    tool: Parameters<typeof decidePermission>[1],
    input: unknown,
    toolName?: string,
  ): PermissionVerdict => decidePermission(setup.policyOptions, tool, input, toolName);
}

import type { ApprovalSettings } from "../../agent/pipeline/approval-policy.js";
import { approvalSettingsFiles, loadApprovalSettings } from "../approvals/approval-settings.js";
import type { Workspace } from "../workspace.js";
import { formatAllowedHost } from "./allowed-hosts.js";
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
import { readRememberedRules } from "./remembered-rules.js";
import { type CommandSandbox, detectSandbox, type SandboxAvailability } from "./sandbox.js";
import { canShareNetwork } from "./sandbox-network.js";

/** Everything the permission policy and the command tool need, loaded once per session. */
export interface PermissionSetup {
  settings: ApprovalSettings;
  rules: PermissionRule[];
  sandboxSettings: SandboxSettings;
  /** The sandbox to run commands in; undefined when it is off or unavailable. */
  sandbox?: CommandSandbox;
  /** What the bubblewrap probe found (or an earlier start's remembered answer). */
  sandboxAvailability: SandboxAvailability;
  /** One line for the person: how commands run (sandboxed, or why not). */
  sandboxNote: string;
  /**
   * The note is news worth saying once when a task starts: the person chose a sandbox mode or
   * allowed hosts, or the default sandbox is unavailable here. A default sandbox that works goes unannounced.
   */
  announceSandbox: boolean;
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
  /** Whether bubblewrap works here. Default: `detectSandbox()`. */
  detectSandbox?: () => Promise<SandboxAvailability>;
}

/**
 * Loads the settings files, the project trust answer and the sandbox probe, in parallel.
 * Throws `ApprovalSettingsError` for broken settings. The shell parser the rules read commands
 * with is not loaded here: it is not needed before the model's first reply (see
 * `loadShellParser`).
 */
export async function loadPermissionSetup(options: PermissionSetupOptions): Promise<PermissionSetup> {
  const root = options.workspace.root;
  const subject = projectTrustSubject(root);
  const decision = subject ? readProjectTrust(options.home, subject) : undefined;
  const projectTrusted = options.projectTrusted ?? decision === "trusted";
  const [loaded, availability] = await Promise.all([
    loadApprovalSettings(approvalSettingsFiles(options.home, root), projectTrusted),
    (options.detectSandbox ?? detectSandbox)(),
  ]);
  const settings = { ...loaded.settings, yolo: loaded.settings.yolo || options.yolo === true };
  const sandboxSettings = loaded.permissions.sandbox;
  const { sandbox, note } = chooseSandbox(sandboxSettings, availability, root, options.home);
  const announceSandbox =
    sandboxSettings.mode !== undefined || sandboxSettings.allowedHosts.length > 0 || !availability.available;
  // The settings' rules, then the person's "approve always" answers in this workspace.
  const rules = [...loaded.permissions.rules, ...readRememberedRules(options.home, root)];
  const policyOptions: PermissionPolicyOptions = {
    settings,
    rules,
    workspace: options.workspace,
    protectedDirs: [options.home],
    sandbox: { active: sandbox !== undefined, autoApprove: sandboxSettings.autoApprove },
  };
  return {
    settings,
    rules,
    sandboxSettings,
    ...(sandbox ? { sandbox } : {}),
    sandboxAvailability: availability,
    sandboxNote: note,
    announceSandbox,
    ignored: loaded.ignored,
    ...(subject ? { trust: { subject, decision: decision ?? "unknown" } } : {}),
    policyOptions,
  };
}

/**
 * The sandbox commands run in, and a line saying so. The mode defaults to workspace-write where
 * bubblewrap works and to off elsewhere; a mode asked for where bubblewrap does not work falls
 * back to off, and commands that are not read-only ask first as they do without a sandbox.
 */
function chooseSandbox(
  settings: SandboxSettings,
  availability: SandboxAvailability,
  workspaceRoot: string,
  bowlineHome: string,
): { sandbox?: CommandSandbox; note: string } {
  if (settings.mode === "off") return { note: "Commands run without a sandbox (sandbox.mode is off)." };
  if (!availability.available) {
    const asked = settings.mode ? ` (sandbox.mode is ${settings.mode})` : "";
    return {
      note: `Commands run without a sandbox${asked}: ${availability.reason}. Commands that are not read-only ask first.`,
    };
  }
  const mode = settings.mode ?? "workspace-write";
  // Without network, commands share one localhost where nsenter can join them to it; the
  // allowed hosts are reached through a proxy on it.
  const shared = !settings.network && canShareNetwork();
  const hosts = shared ? settings.allowedHosts : [];
  const sandbox: CommandSandbox = {
    mode,
    network: settings.network,
    workspaceRoot,
    writable: settings.writable,
    // Bowline's own settings, keys and task journals.
    hidden: [bowlineHome],
    bwrapPath: availability.bwrapPath,
    ...(settings.network ? {} : { sharedLoopback: shared }),
    ...(hosts.length > 0 ? { allowedHosts: hosts } : {}),
  };
  const writable = mode === "workspace-write" ? "the workspace and temp directories" : "temp directories";
  return {
    sandbox,
    note: `Commands run in a ${mode} sandbox (bubblewrap): only ${writable} are writable, ${networkNote(settings, shared)}.`,
  };
}

function networkNote(settings: SandboxSettings, shared: boolean): string {
  if (settings.network) return "with network";
  const count = settings.allowedHosts.length;
  if (count === 0) return "without network";
  const names = settings.allowedHosts.map(formatAllowedHost).join(", ");
  return shared
    ? `without network but for ${count} allowed host(s) through a proxy (${names})`
    : `without network; the ${count} allowed host(s) stay unreachable, as their proxy needs nsenter (util-linux), which is not installed`;
}

/** Decides calls under a loaded setup (see `decidePermission`). */
export function createPermissionDecider(setup: PermissionSetup) {
  return (
    tool: Parameters<typeof decidePermission>[1],
    input: unknown,
    toolName?: string,
  ): PermissionVerdict => decidePermission(setup.policyOptions, tool, input, toolName);
}

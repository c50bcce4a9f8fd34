import * as z from "zod/mini";
import { type AllowedHost, AllowedHostError, parseAllowedHost } from "./allowed-hosts.js";
import {
  type PermissionRule,
  PermissionRuleError,
  parsePermissionRule,
  type RuleAction,
} from "./permission-rules.js";

const ruleList = z.optional(z.array(z.string()));

/** `permissions` in approvals.json: rules by action, each `tool` or `tool(pattern)`. */
export const permissionsSchema = z.strictObject({ allow: ruleList, ask: ruleList, deny: ruleList });

export type SandboxMode = "off" | "workspace-write" | "read-only";

/** `sandbox` in approvals.json. */
export const sandboxSettingsSchema = z.strictObject({
  /** Default: workspace-write where bubblewrap works, else off. */
  mode: z.optional(z.enum(["off", "workspace-write", "read-only"])),
  /** Commands in the sandbox may reach the network. Default false. */
  network: z.optional(z.boolean()),
  /** Commands that will run in the sandbox need no approval (rules and protected paths still apply). */
  autoApprove: z.optional(z.boolean()),
  /** More writable directories (absolute or `~/`), e.g. a package cache. */
  writable: z.optional(z.array(z.string())),
  /** Hosts sandboxed commands may reach without network, through a proxy (`host`, `*.domain`, `:port`). */
  allowedHosts: z.optional(z.array(z.string())),
});

export type PermissionsFile = z.infer<typeof permissionsSchema>;
export type SandboxSettingsFile = z.infer<typeof sandboxSettingsSchema>;

export interface SandboxSettings {
  /** Undefined: the default for this machine (decided once bubblewrap is probed). */
  mode?: SandboxMode;
  network: boolean;
  autoApprove: boolean;
  writable: string[];
  /** Reachable through the sandbox's proxy when network is off. */
  allowedHosts: AllowedHost[];
}

export interface MergedPermissions {
  rules: PermissionRule[];
  sandbox: SandboxSettings;
  /** What the project asked for and did not get, for a notice. */
  ignored: string[];
}

const ACTIONS: readonly RuleAction[] = ["deny", "ask", "allow"];
const STRICTNESS: Record<SandboxMode, number> = { off: 0, "workspace-write": 1, "read-only": 2 };

/** Parses the rules of one file; throws `PermissionRuleError` naming the bad rule. */
export function parsePermissions(file: PermissionsFile | undefined, source: string): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const action of ACTIONS) {
    for (const text of file?.[action] ?? []) {
      try {
        rules.push(parsePermissionRule(text, action, source));
      } catch (error) {
        if (error instanceof PermissionRuleError)
          throw new PermissionRuleError(`${source}: ${error.message}`);
        throw error;
      }
    }
  }
  return rules;
}

export interface PermissionSources {
  user?: { permissions?: PermissionsFile; sandbox?: SandboxSettingsFile };
  project?: { permissions?: PermissionsFile; sandbox?: SandboxSettingsFile };
  /** The person trusts this project's settings (see project-trust.ts); its allow rules count only then. */
  projectTrusted: boolean;
}

/**
 * The rules and sandbox settings in force. The user's rules all count; the project's deny and
 * ask rules always count (they only tighten), its allow rules only when the project is trusted
 * (deny and ask rules win over them anyway). The project may make the sandbox stricter, never
 * looser.
 */
export function mergePermissions(sources: PermissionSources): MergedPermissions {
  const ignored: string[] = [];
  const project = parsePermissions(sources.project?.permissions, "project settings");
  const projectAllows = project.filter((rule) => rule.action === "allow");
  if (!sources.projectTrusted && projectAllows.length > 0) {
    ignored.push(`${projectAllows.length} allow rule(s): this project's settings are not trusted`);
  }
  const rules = [
    ...parsePermissions(sources.user?.permissions, "user settings"),
    ...project.filter((rule) => rule.action !== "allow" || sources.projectTrusted),
  ];
  return {
    rules,
    sandbox: mergeSandbox(
      sources.user?.sandbox ?? {},
      sources.project?.sandbox ?? {},
      sources.projectTrusted,
      ignored,
    ),
    ignored,
  };
}

function mergeSandbox(
  user: SandboxSettingsFile,
  project: SandboxSettingsFile,
  projectTrusted: boolean,
  ignored: string[],
): SandboxSettings {
  let mode = user.mode;
  if (project.mode !== undefined) {
    const userStrictness = mode === undefined ? STRICTNESS["workspace-write"] : STRICTNESS[mode];
    if (STRICTNESS[project.mode] >= userStrictness) mode = project.mode;
    else ignored.push(`sandbox.mode ${project.mode}: the project settings cannot loosen the sandbox`);
  }
  const loosen = (key: "network" | "autoApprove") => {
    if (project[key] === true && user[key] !== true) {
      ignored.push(`sandbox.${key}: the project settings cannot turn on what the user settings leave off`);
    }
    return user[key] === true && project[key] !== false;
  };
  if ((project.writable ?? []).length > 0)
    ignored.push("sandbox.writable: only the user settings can add writable directories");
  const projectHosts = project.allowedHosts ?? [];
  if (projectHosts.length > 0 && !projectTrusted)
    ignored.push(`sandbox.allowedHosts (${projectHosts.length}): this project's settings are not trusted`);
  return {
    ...(mode !== undefined ? { mode } : {}),
    network: loosen("network"),
    autoApprove: loosen("autoApprove"),
    writable: user.writable ?? [],
    allowedHosts: [
      ...parseHosts(user.allowedHosts ?? [], "user settings"),
      ...parseHosts(projectTrusted ? projectHosts : [], "project settings"),
    ],
  };
}

/** Throws `PermissionRuleError` naming the settings and the bad entry. */
function parseHosts(entries: readonly string[], source: string): AllowedHost[] {
  return entries.map((entry) => {
    try {
      return parseAllowedHost(entry);
    } catch (error) {
      if (error instanceof AllowedHostError) throw new PermissionRuleError(`${source}: ${error.message}`);
      throw error;
    }
  });
}

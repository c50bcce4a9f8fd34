import fs from "node:fs/promises";
import path from "node:path";
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import {
  type ApprovalSettings,
  type ApprovalSettingsFile,
  approvalSettingsFileSchema,
  approvalSettingsSchema,
  DEFAULT_APPROVAL_SETTINGS,
} from "../../agent/pipeline/approval-policy.js";
import { PermissionRuleError } from "../safety/permission-rules.js";
import {
  type MergedPermissions,
  mergePermissions,
  type PermissionsFile,
  permissionsSchema,
  type SandboxSettingsFile,
  sandboxSettingsSchema,
} from "../safety/permission-settings.js";

// English messages for validation errors (zod/mini loads no locale by itself).
z.config(en());

/** A settings file could not be read or says something invalid. The message names the file and the fix. */
export class ApprovalSettingsError extends Error {
  readonly code = "invalid_approval_settings";

  constructor(message: string) {
    super(message);
    this.name = "ApprovalSettingsError";
  }
}

const SETTING_NAMES = Object.keys(approvalSettingsSchema.shape);

/** One approvals.json: the approval settings, permission rules and sandbox settings. */
export interface ApprovalsFile {
  settings: ApprovalSettingsFile;
  permissions?: PermissionsFile;
  sandbox?: SandboxSettingsFile;
}

/**
 * Checks one settings document: a JSON text or an already parsed value holding any subset of the
 * settings, plus optional `permissions` ({ allow, ask, deny } rule lists) and `sandbox`. Throws
 * `ApprovalSettingsError` listing every problem; `source` (e.g. the file path) prefixes the message.
 */
export function parseApprovalsFile(json: unknown, source = "approval settings"): ApprovalsFile {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new ApprovalSettingsError(`${source}: not valid JSON (${(error as Error).message}).`);
    }
  }
  const { permissions, sandbox, ...rest } = isObject(value)
    ? value
    : { permissions: undefined, sandbox: undefined };
  const problems = [
    ...issues(approvalSettingsFileSchema, isObject(value) ? rest : value, []),
    ...issues(permissionsSchema, permissions, ["permissions"]),
    ...issues(sandboxSettingsSchema, sandbox, ["sandbox"]),
  ];
  if (problems.length > 0) {
    throw new ApprovalSettingsError(
      `${source} is invalid:\n${problems.join("\n")}\nValid settings: ${SETTING_NAMES.join(", ")} (booleans; mcpAlwaysAllow is a list of "<server>__mcp__<tool>" names), permissions ({ "allow": [...], "ask": [...], "deny": [...] } rules such as "execute_command(npm test)"), sandbox ({ "mode": "off" | "workspace-write" | "read-only", "network", "autoApprove", "writable" }).`,
    );
  }
  return {
    settings: rest as ApprovalSettingsFile,
    ...(permissions !== undefined ? { permissions: permissions as PermissionsFile } : {}),
    ...(sandbox !== undefined ? { sandbox: sandbox as SandboxSettingsFile } : {}),
  };
}

/** The approval settings of one document (see `parseApprovalsFile`). */
export function parseApprovalSettings(json: unknown, source = "approval settings"): ApprovalSettingsFile {
  return parseApprovalsFile(json, source).settings;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Problems of `value` under `schema`, one line each; an absent optional section has none. */
function issues(schema: z.ZodMiniType, value: unknown, at: string[]): string[] {
  if (value === undefined && at.length > 0) return [];
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const where = [...at, ...issue.path.map(String)];
    return `- ${where.length > 0 ? `${where.join(".")}: ` : ""}${issue.message}`;
  });
}

/** The coding agent's defaults: reads inside the workspace and read-only command lines run. */
export const APPROVAL_DEFAULTS: Readonly<ApprovalSettings> = Object.freeze({
  ...DEFAULT_APPROVAL_SETTINGS,
  safeCommands: true,
});

export interface MergedApprovalSettings {
  settings: ApprovalSettings;
  /** Project settings that tried to approve more than the user allows, and were ignored. */
  ignored: string[];
}

/**
 * The effective settings: the defaults, then the user's settings (which may loosen or tighten
 * anything), then the project's, which can only tighten: a project `false` turns a setting off, a
 * project `true` the user settings leave off is ignored, and a project `mcpAlwaysAllow` keeps only
 * the names both lists hold.
 */
export function mergeApprovalSettings(
  user: ApprovalSettingsFile,
  project: ApprovalSettingsFile,
  defaults: Readonly<ApprovalSettings> = DEFAULT_APPROVAL_SETTINGS,
): MergedApprovalSettings {
  const settings: ApprovalSettings = { ...defaults, ...user };
  settings.mcpAlwaysAllow = [...settings.mcpAlwaysAllow];
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(project) as Array<[keyof ApprovalSettings, unknown]>) {
    if (key === "mcpAlwaysAllow") continue;
    if (value === false) settings[key] = false as never;
    else if (value === true && settings[key] !== true) {
      ignored.push(`${key}: the project settings cannot turn on what the user settings leave off`);
    }
  }
  if (project.mcpAlwaysAllow !== undefined) {
    const allowedByProject = new Set(project.mcpAlwaysAllow);
    for (const name of project.mcpAlwaysAllow) {
      if (!settings.mcpAlwaysAllow.includes(name)) {
        ignored.push(
          `mcpAlwaysAllow ${name}: the project settings cannot allow what the user settings do not`,
        );
      }
    }
    settings.mcpAlwaysAllow = settings.mcpAlwaysAllow.filter((name) => allowedByProject.has(name));
  }
  return { settings, ignored };
}

export interface ApprovalSettingsFiles {
  /** e.g. `~/.bowline/approvals.json`. */
  user?: string;
  /** e.g. `<workspace>/.bowline/approvals.json`. */
  project?: string;
}

/** Where the settings files live: `<home>/approvals.json` and `<workspace>/.bowline/approvals.json`. */
export function approvalSettingsFiles(
  bowlineHome: string,
  workspaceRoot: string,
): Required<ApprovalSettingsFiles> {
  return {
    user: path.join(bowlineHome, "approvals.json"),
    project: path.join(workspaceRoot, ".bowline", "approvals.json"),
  };
}

export interface LoadedApprovalSettings extends MergedApprovalSettings {
  /** Permission rules and sandbox settings in force. */
  permissions: MergedPermissions;
}

/**
 * Reads and merges the settings files; a missing file counts as empty. The project's allow rules
 * count only when `projectTrusted`. Throws `ApprovalSettingsError`.
 */
export async function loadApprovalSettings(
  files: ApprovalSettingsFiles,
  projectTrusted = false,
): Promise<LoadedApprovalSettings> {
  const [user, project] = await Promise.all([readSettingsFile(files.user), readSettingsFile(files.project)]);
  const merged = mergeApprovalSettings(user.settings, project.settings, APPROVAL_DEFAULTS);
  let permissions: MergedPermissions;
  try {
    permissions = mergePermissions({ user, project, projectTrusted });
  } catch (error) {
    if (error instanceof PermissionRuleError) throw new ApprovalSettingsError(error.message);
    throw error;
  }
  return { ...merged, ignored: [...merged.ignored, ...permissions.ignored], permissions };
}

async function readSettingsFile(file: string | undefined): Promise<ApprovalsFile> {
  if (file === undefined) return { settings: {} };
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { settings: {} };
    throw new ApprovalSettingsError(`${file}: cannot be read (${(error as Error).message}).`);
  }
  return parseApprovalsFile(text, file);
}

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

/**
 * Checks one settings document: a JSON text or an already parsed value holding any subset of the
 * settings. Throws `ApprovalSettingsError` listing every problem; `source` (e.g. the file path)
 * prefixes the message.
 */
export function parseApprovalSettings(json: unknown, source = "approval settings"): ApprovalSettingsFile {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new ApprovalSettingsError(`${source}: not valid JSON (${(error as Error).message}).`);
    }
  }
  const parsed = z.safeParse(approvalSettingsFileSchema, value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    return `- ${where}${issue.message}`;
  });
  throw new ApprovalSettingsError(
    `${source} is invalid:\n${problems.join("\n")}\nValid settings: ${SETTING_NAMES.join(", ")} (booleans; mcpAlwaysAllow is a list of "<server>__mcp__<tool>" names).`,
  );
}

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

/** Reads and merges the settings files; a missing file counts as empty. Throws `ApprovalSettingsError`. */
export async function loadApprovalSettings(files: ApprovalSettingsFiles): Promise<MergedApprovalSettings> {
  const [user, project] = await Promise.all([readSettingsFile(files.user), readSettingsFile(files.project)]);
  return mergeApprovalSettings(user, project);
}

async function readSettingsFile(file: string | undefined): Promise<ApprovalSettingsFile> {
  if (file === undefined) return {};
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ApprovalSettingsError(`${file}: cannot be read (${(error as Error).message}).`);
  }
  return parseApprovalSettings(text, file);
}

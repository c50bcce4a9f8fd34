import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { SETTING_NAMES, type SettingsFile, settingsFileSchema } from "./settings-schema.js";

// English messages for validation errors (zod/mini loads no locale by itself).
z.config(en());

/** A settings file could not be read or says something invalid. The message names the file and field. */
export class SettingsError extends Error {
  readonly code = "invalid_settings";

  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

export interface SettingsFiles {
  /** `<home>/settings.json`. */
  user: string;
  /** `<workspace>/.bowline/settings.json`: overrides the user's. */
  project: string;
}

export function settingsFiles(home: string, workspaceRoot: string): SettingsFiles {
  return { user: join(home, "settings.json"), project: join(workspaceRoot, ".bowline", "settings.json") };
}

export interface LoadedSettingsFile {
  settings: SettingsFile;
  /** Things worth telling the person: unknown fields, a key in a file others can read. */
  warnings: string[];
}

/**
 * Reads one settings file; a missing file is empty. Throws `SettingsError` naming the file and
 * each bad field. Messages never quote the file's text, which may hold a key.
 */
export function readSettingsFile(file: string): LoadedSettingsFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { settings: {}, warnings: [] };
    throw new SettingsError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  const value = parseJson(text, file);
  const parsed = z.safeParse(settingsFileSchema, value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
      return `  - ${where}${issue.message}`;
    });
    throw new SettingsError(
      `${file} is invalid:\n${problems.join("\n")}\nValid settings: ${SETTING_NAMES.join(", ")}.`,
    );
  }
  const warnings = Object.keys(value as object)
    .filter((key) => !SETTING_NAMES.includes(key))
    .map((key) => `${file}: unknown setting "${key}" ignored (valid settings: ${SETTING_NAMES.join(", ")}).`);
  const exposed = holdsKey(parsed.data) ? readableByOthers(file) : undefined;
  if (exposed) warnings.push(exposed);
  return { settings: parsed.data, warnings };
}

function holdsKey(settings: SettingsFile): boolean {
  return settings.apiKey !== undefined || Object.keys(settings.keys ?? {}).length > 0;
}

/** A warning when a file holding a key can be read by the group or others (POSIX modes only). */
function readableByOthers(file: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return `${file} holds an API key but other users can read it (mode ${mode.toString(8)}); run: chmod 600 ${file}`;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SettingsError(`${file}: not valid JSON (${jsonProblem((error as Error).message, text)}).`);
  }
}

/**
 * V8's description of a JSON syntax error without the excerpt of the text it may quote (the
 * text may hold a key), with the line and column instead of the offset.
 */
function jsonProblem(message: string, text: string): string {
  const what = message.split(/ in JSON|"/)[0]!.replace(/[\s,.]+$/, "");
  const offset = /at position (\d+)/.exec(message);
  if (!offset) return what;
  const before = text.slice(0, Number(offset[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${what} at line ${line}, column ${column}`;
}

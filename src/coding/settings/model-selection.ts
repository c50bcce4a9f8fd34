import { lookupModel, UNKNOWN_MODEL_INFO } from "../../llm/catalogue.js";
import { type Env, type ModelDefaults, type ModelFlags, resolveModelConfig } from "../../llm/config.js";
import type { ModelConfig } from "../../llm/types.js";
import { bowlineHome } from "../session/paths.js";
import { readSettingsFile, SettingsError, type SettingsFiles, settingsFiles } from "./settings-file.js";
import type { ModeModel, SettingsFile } from "./settings-schema.js";

/**
 * The models of a task. `plan` is set only when the settings choose a separate plan-mode model.
 * NOTE: the task loop does not switch models by mode yet; it runs on `act` (wiring `plan` in is
 * the task loop's job).
 */
export interface ModelSelection {
  act: ModelConfig;
  plan?: ModelConfig;
}

/** Why no model can be used; `invalid_settings` names the file and field. */
export type ModelSelectionFailure = { ok: false; code: "invalid_settings" | "no_model"; message: string };

/** `unknownModels` has a line for each model the catalogue does not know (run on safe defaults). */
export type SelectedModels =
  | { ok: true; models: ModelSelection; unknownModels: string[] }
  | ModelSelectionFailure;

/** `warnings` concern the settings files and are always worth showing. */
export type ModelSelectionResult =
  | (SelectedModels & { ok: true; warnings: string[] })
  | ModelSelectionFailure;

export interface LoadedSettings {
  /** The user's settings overridden by the project's. */
  settings: SettingsFile;
  files: SettingsFiles;
  warnings: string[];
}

/** Fields a project may not set: a repository could otherwise send your key to a server of its choosing. */
function withoutProjectUrls(settings: SettingsFile, file: string, warnings: string[]): SettingsFile {
  const ignored = (field: string) =>
    warnings.push(
      `${file}: ${field} ignored (a project cannot choose where your API key is sent); ` +
        "set it in your user settings or pass --base-url.",
    );
  const { baseUrl, ...rest } = settings;
  if (baseUrl !== undefined) ignored("baseUrl");
  for (const mode of ["planModel", "actModel"] as const) {
    const choice = rest[mode];
    if (typeof choice === "object" && choice.baseUrl !== undefined) {
      ignored(`${mode}.baseUrl`);
      const { baseUrl: _dropped, ...kept } = choice;
      rest[mode] = kept;
    }
  }
  return rest;
}

/**
 * Reads `<home>/settings.json` and `<workspace>/.bowline/settings.json`; the project's fields
 * override the user's (`keys` and `reasoning` field by field). Throws `SettingsError`.
 */
export function loadSettings(home: string, workspaceRoot: string): LoadedSettings {
  const files = settingsFiles(home, workspaceRoot);
  const user = readSettingsFile(files.user);
  const project = readSettingsFile(files.project);
  const warnings = [...user.warnings, ...project.warnings];
  const projectSettings = withoutProjectUrls(project.settings, files.project, warnings);
  const settings: SettingsFile = { ...user.settings, ...projectSettings };
  if (user.settings.keys || projectSettings.keys)
    settings.keys = { ...user.settings.keys, ...projectSettings.keys };
  if (user.settings.reasoning || projectSettings.reasoning) {
    settings.reasoning = { ...user.settings.reasoning, ...projectSettings.reasoning };
  }
  return { settings, files, warnings };
}

/** The settings as model defaults, with a mode's own model (planModel / actModel) in place of the general one. */
export function settingsDefaults(settings: SettingsFile, mode?: ModeModel): ModelDefaults {
  const { provider, model, baseUrl, apiKey, keys, region, maxOutputTokens, reasoning } = settings;
  const general: ModelDefaults = {
    provider,
    model,
    baseUrl,
    apiKey,
    keys,
    region,
    maxOutputTokens,
    reasoning,
  };
  if (mode === undefined) return general;
  const choice = typeof mode === "string" ? { model: mode } : mode;
  const sameProvider =
    choice.provider === undefined || choice.provider.toLowerCase() === provider?.toLowerCase();
  // A mode on another provider keeps only what is not tied to the general provider.
  const base: ModelDefaults = sameProvider ? general : { keys, region, maxOutputTokens, reasoning };
  return { ...base, ...choice };
}

/** Whether the flags or BOWLINE_PROVIDER / BOWLINE_MODEL choose the model, overriding the settings' per-mode models. */
function chosenOutsideSettings(flags: ModelFlags, env: Env): boolean {
  return [flags.provider, flags.model, env.BOWLINE_PROVIDER, env.BOWLINE_MODEL].some((v) => v?.trim());
}

/** One line for each model the catalogue does not know. */
function unknownModels(configs: ModelConfig[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const config of configs) {
    const id = `${config.provider}/${config.model}`;
    if (seen.has(id) || lookupModel(config.provider, config.model).known) continue;
    seen.add(id);
    const { contextWindow, maxOutputTokens } = UNKNOWN_MODEL_INFO;
    lines.push(
      `unknown model "${config.model}" (${config.provider}): assuming a ${contextWindow}-token context, ` +
        `${maxOutputTokens}-token replies and no images; cost is not shown.`,
    );
  }
  return lines;
}

/**
 * The act model (and a plan model when the settings choose one) from, in increasing strength,
 * the settings, the environment and the flags.
 */
export function selectModels(settings: SettingsFile, flags: ModelFlags, env: Env): SelectedModels {
  const ownModes = !chosenOutsideSettings(flags, env);
  const act = resolveModelConfig(
    flags,
    env,
    settingsDefaults(settings, ownModes ? settings.actModel : undefined),
  );
  if (!act.ok) return { ok: false, code: "no_model", message: act.message };
  if (!ownModes || settings.planModel === undefined) {
    return { ok: true, models: { act: act.config }, unknownModels: unknownModels([act.config]) };
  }
  const plan = resolveModelConfig(flags, env, settingsDefaults(settings, settings.planModel));
  if (!plan.ok) {
    return {
      ok: false,
      code: "invalid_settings",
      message: `The planModel setting cannot be used: ${plan.message}`,
    };
  }
  const models = { act: act.config, plan: plan.config };
  return { ok: true, models, unknownModels: unknownModels([models.act, models.plan]) };
}

export interface ResolveModelsOptions {
  flags: ModelFlags;
  env: Env;
  /** The workspace whose `.bowline/settings.json` applies. */
  workspaceRoot: string;
  /** Bowline's home; default `$BOWLINE_HOME` or `~/.bowline`. */
  home?: string;
}

/**
 * What the CLI calls: the models chosen by the settings files, the environment and the flags.
 * A failure's message says what to fix; `invalid_settings` names the file and field.
 */
export function resolveModels(options: ResolveModelsOptions): ModelSelectionResult {
  let loaded: LoadedSettings;
  try {
    loaded = loadSettings(options.home ?? bowlineHome(options.env), options.workspaceRoot);
  } catch (error) {
    if (error instanceof SettingsError)
      return { ok: false, code: "invalid_settings", message: error.message };
    throw error;
  }
  const selected = selectModels(loaded.settings, options.flags, options.env);
  if (!selected.ok) {
    const where = `Settings are read from ${loaded.files.user} and ${loaded.files.project}.`;
    return { ...selected, message: `${selected.message}\n${where}` };
  }
  return { ...selected, warnings: loaded.warnings };
}

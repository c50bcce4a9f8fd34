export {
  type LoadedSettings,
  loadSettings,
  type ModelSelection,
  type ModelSelectionFailure,
  type ModelSelectionResult,
  type ResolveModelsOptions,
  resolveModels,
  type SelectedModels,
  selectModels,
  settingsDefaults,
} from "./model-selection.js";
export { readSettingsFile, SettingsError, type SettingsFiles, settingsFiles } from "./settings-file.js";
export { type ModeModel, type SettingsFile, settingsFileSchema } from "./settings-schema.js";

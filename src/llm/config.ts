/**
 * Chooses the model to talk to from command-line flags, the environment and settings, with the
 * provider presets (presets.json) saying what each named vendor needs.
 */
import { findPreset, PRESET_NAMES, PRESETS, type ProviderPreset } from "./presets.js";
import type { ModelConfig, ReasoningConfig } from "./types.js";

/** One source's choice of model. Every field is optional; a stronger source wins field by field. */
export interface ModelChoice {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  /** AWS region (Bedrock). */
  region?: string;
  maxOutputTokens?: number;
  reasoning?: ReasoningConfig;
}

/** Command-line flags: the strongest source. */
export type ModelFlags = ModelChoice;

/**
 * What settings files choose: weaker than the environment. `model`, `baseUrl` and `apiKey`
 * belong to `provider`: they apply only when that provider is the one chosen, or when the
 * settings name none. `keys` holds API keys by provider name.
 */
export interface ModelDefaults extends ModelChoice {
  keys?: Record<string, string>;
}

export type Env = Record<string, string | undefined>;

export type ResolvedModelConfig = { ok: true; config: ModelConfig } | { ok: false; message: string };

/** The key sent to servers that need none (most local servers ignore it, the SDKs require one). */
export const NO_KEY_NEEDED = "not-needed";

/** A trimmed value, or undefined when unset or blank. */
function value(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/** The first of the variables that is set, with its name. */
function firstSet(
  env: Env,
  names: readonly string[] | undefined,
): { name: string; value: string } | undefined {
  for (const name of names ?? []) {
    const found = value(env[name]);
    if (found) return { name, value: found };
  }
  return undefined;
}

/** Where a provider's API key was found: the key and a name for its source (never the key). */
export interface FoundKey {
  key: string;
  /** `--api-key`, the environment variable's name, or `settings`. */
  from: string;
}

/** A provider's API key from the flags, its environment variables, then the settings. */
export function findApiKey(
  provider: string,
  preset: ProviderPreset | undefined,
  flags: ModelFlags,
  env: Env,
  defaults: ModelDefaults,
): FoundKey | undefined {
  const flag = value(flags.apiKey);
  if (flag) return { key: flag, from: "--api-key" };
  const fromEnv = firstSet(env, preset?.keyVars);
  if (fromEnv) return { key: fromEnv.value, from: fromEnv.name };
  const setting = settingsKey(provider, preset, defaults) ?? ownDefaults(provider, defaults).apiKey?.trim();
  return setting ? { key: setting, from: "settings" } : undefined;
}

/**
 * A key from the settings' `keys`: the provider's own, else one stored for a provider that reads
 * the same environment variable (`openai` serves `openai-responses`).
 */
function settingsKey(
  provider: string,
  preset: ProviderPreset | undefined,
  defaults: ModelDefaults,
): string | undefined {
  const keys = defaults.keys ?? {};
  const own = Object.hasOwn(keys, provider) ? value(keys[provider]) : undefined;
  if (own || !preset?.keyVars) return own;
  const sharing = Object.keys(keys).filter((name) =>
    findPreset(name)?.keyVars?.some((keyVar) => preset.keyVars?.includes(keyVar)),
  );
  return sharing.map((name) => value(keys[name])).find(Boolean);
}

/** The settings that apply to `provider`: without the model, URL and key chosen for another one. */
function ownDefaults(provider: string, defaults: ModelDefaults): ModelDefaults {
  const named = value(defaults.provider)?.toLowerCase();
  if (named === undefined || named === provider) return defaults;
  const { keys, region, maxOutputTokens, reasoning } = defaults;
  return { keys, region, maxOutputTokens, reasoning };
}

function checkUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return undefined;
  } catch {
    // Reported below.
  }
  return `The base URL "${url}" is not an http(s) URL, e.g. http://localhost:11434/v1.`;
}

/** How to set a preset up, in a few words: its key variable, or that it needs none. */
function setupHint(preset: ProviderPreset): string {
  const keys = (preset.keyVars ?? []).join(" or ");
  if (preset.auth === "key") return keys;
  if (preset.auth === "aws") return `AWS credentials, ${preset.regionVars?.[0] ?? "a region"}`;
  return preset.baseUrl ? `no key (${preset.baseUrl})` : "no key, --base-url <url>";
}

/** Every way to configure a model, generated from the presets. */
export function howToConfigure(): string {
  const rows = Object.entries(PRESETS).map(([name, preset]) => {
    const model = preset.defaultModel ? `default model ${preset.defaultModel}` : "--model <name>";
    return `  ${name.padEnd(17)} ${setupHint(preset).padEnd(36)} ${model}`;
  });
  return [
    "To use a model, set its provider's key (or start a local server) and choose it with --provider:",
    ...rows,
    `  ${"any other name".padEnd(17)} an OpenAI-compatible server: --base-url <url> --model <name>`,
    "Without --provider, the first provider whose key is set is used.",
    "Examples:",
    "  bowline --provider openrouter --model anthropic/claude-sonnet-4.5",
    "  bowline --provider ollama --base-url http://localhost:11434/v1 --model qwen2.5-coder",
    "Flags: --provider <name>, --model <id>, --base-url <url>. `bowline models` shows what is configured.",
    "Environment: BOWLINE_PROVIDER and BOWLINE_MODEL stand in for --provider and --model;",
    "ANTHROPIC_BASE_URL and OPENAI_BASE_URL set the base URL of their provider.",
  ].join("\n");
}

function fail(problem: string): ResolvedModelConfig {
  return { ok: false, message: `${problem}\n${howToConfigure()}` };
}

/** With no provider named, the first key found picks one; a base URL alone means an OpenAI-compatible server. */
function detectProvider(flags: ModelFlags, env: Env, defaults: ModelDefaults): string | undefined {
  for (const [name, preset] of Object.entries(PRESETS)) {
    if (preset.auth !== "key") continue;
    if (firstSet(env, preset.keyVars) || value(defaults.keys?.[name])) return name;
  }
  if (value(env.OPENAI_BASE_URL) || value(flags.baseUrl) || value(defaults.baseUrl)) return "openai";
  return undefined;
}

/** The options every provider shares: reply length and reasoning. */
function commonOptions(flags: ModelFlags, defaults: ModelDefaults): Partial<ModelConfig> {
  const maxOutputTokens = flags.maxOutputTokens ?? defaults.maxOutputTokens;
  const reasoning = flags.reasoning ?? defaults.reasoning;
  return {
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}

function resolvePreset(
  name: string,
  preset: ProviderPreset,
  flags: ModelFlags,
  env: Env,
  defaults: ModelDefaults,
): ResolvedModelConfig {
  const chosenUrl =
    value(flags.baseUrl) ??
    (preset.baseUrlVar ? value(env[preset.baseUrlVar]) : undefined) ??
    value(defaults.baseUrl);
  const baseUrl = chosenUrl ?? preset.baseUrl;
  const urlProblem = checkUrl(baseUrl);
  if (urlProblem) return fail(urlProblem);
  if (!baseUrl && preset.needsBaseUrl) {
    return fail(
      `The ${name} provider needs --base-url <url>: the address of your server, e.g. http://localhost:8000/v1.`,
    );
  }
  let apiKey = findApiKey(name, preset, flags, env, defaults)?.key;
  if (!apiKey && preset.auth === "key" && !chosenUrl) {
    return fail(`The ${name} provider needs an API key: set ${(preset.keyVars ?? []).join(" or ")}.`);
  }
  apiKey ??= preset.auth === "aws" ? "" : NO_KEY_NEEDED;
  const model =
    value(flags.model) ?? value(env.BOWLINE_MODEL) ?? value(defaults.model) ?? preset.defaultModel;
  if (!model) {
    return fail(
      `The ${name} provider needs --model <name>: the model name the server knows (bowline models --check lists them).`,
    );
  }
  const region = preset.regionVars
    ? (value(flags.region) ?? firstSet(env, preset.regionVars)?.value ?? value(defaults.region))
    : undefined;
  return {
    ok: true,
    config: {
      provider: name,
      wireFormat: preset.wireFormat,
      model,
      apiKey,
      ...(baseUrl ? { baseUrl } : {}),
      ...(region ? { region } : {}),
      ...(preset.quirks ? { quirks: preset.quirks } : {}),
      ...(preset.headers ? { headers: preset.headers } : {}),
      ...commonOptions(flags, defaults),
    },
  };
}

/**
 * A name that is no preset: an OpenAI-compatible server at the given base URL. Its key comes
 * from the flags or the settings for that name, else OPENAI_API_KEY, else none.
 */
function resolveCompatible(
  name: string,
  flags: ModelFlags,
  env: Env,
  defaults: ModelDefaults,
): ResolvedModelConfig {
  const baseUrl = value(flags.baseUrl) ?? value(defaults.baseUrl);
  if (!baseUrl) {
    return fail(
      `Unknown provider "${name}". Valid providers are ${PRESET_NAMES.join(", ")}; any other name is an ` +
        `OpenAI-compatible server and needs --base-url <url>.`,
    );
  }
  const urlProblem = checkUrl(baseUrl);
  if (urlProblem) return fail(urlProblem);
  const model = value(flags.model) ?? value(env.BOWLINE_MODEL) ?? value(defaults.model);
  if (!model) return fail(`The ${name} provider needs --model <name>: the model name the server knows.`);
  const apiKey =
    findApiKey(name, undefined, flags, env, defaults)?.key ?? value(env.OPENAI_API_KEY) ?? NO_KEY_NEEDED;
  return {
    ok: true,
    config: {
      provider: name,
      wireFormat: "openai-chat",
      model,
      apiKey,
      baseUrl,
      ...commonOptions(flags, defaults),
    },
  };
}

/**
 * Resolves a model config from, in increasing strength, the settings (`defaults`), the
 * environment (BOWLINE_PROVIDER, BOWLINE_MODEL and each provider's key, URL and region
 * variables) and the flags; or a message telling the person how to configure one.
 */
export function resolveModelConfig(
  flags: ModelFlags,
  env: Env,
  defaults: ModelDefaults = {},
): ResolvedModelConfig {
  const named = value(flags.provider) ?? value(env.BOWLINE_PROVIDER) ?? value(defaults.provider);
  const provider = named?.toLowerCase() ?? detectProvider(flags, env, defaults);
  if (!provider) return fail("No model is configured: no provider was chosen and no API key was found.");
  const own = ownDefaults(provider, defaults);
  const preset = findPreset(provider);
  return preset
    ? resolvePreset(provider, preset, flags, env, own)
    : resolveCompatible(provider, flags, env, own);
}

/** Chooses the model to talk to from command-line flags and the environment. */
import type { ModelConfig, WireFormat } from "./types.js";

export type ModelFlags = { provider?: string; model?: string; baseUrl?: string; apiKey?: string };

export type ResolvedModelConfig = { ok: true; config: ModelConfig } | { ok: false; message: string };

/** The key sent to servers that need none (most local servers ignore it, the SDKs require one). */
export const NO_KEY_NEEDED = "not-needed";

type KnownProvider = { wireFormat: WireFormat; keyVar: string; baseUrlVar: string; defaultModel: string };

const KNOWN_PROVIDERS = new Map<string, KnownProvider>([
  [
    "anthropic",
    {
      wireFormat: "anthropic-messages",
      keyVar: "ANTHROPIC_API_KEY",
      baseUrlVar: "ANTHROPIC_BASE_URL",
      defaultModel: "claude-sonnet-4-5",
    },
  ],
  [
    "openai",
    {
      wireFormat: "openai-chat",
      keyVar: "OPENAI_API_KEY",
      baseUrlVar: "OPENAI_BASE_URL",
      defaultModel: "gpt-4.1",
    },
  ],
]);

const HOW_TO_CONFIGURE = [
  "To use a model, do one of:",
  "  - Anthropic: export ANTHROPIC_API_KEY=<key>   (default model claude-sonnet-4-5)",
  "  - OpenAI:    export OPENAI_API_KEY=<key>      (default model gpt-4.1)",
  "  - A local or OpenAI-compatible server, e.g. Ollama:",
  "      bowline --provider ollama --base-url http://localhost:11434/v1 --model qwen2.5-coder",
  "Flags: --provider <anthropic|openai|name>, --model <id>, --base-url <url>.",
  "Environment: BOWLINE_PROVIDER and BOWLINE_MODEL stand in for --provider and --model;",
  "ANTHROPIC_BASE_URL and OPENAI_BASE_URL set the base URL of their provider.",
].join("\n");

function fail(problem: string): ResolvedModelConfig {
  return { ok: false, message: `${problem}\n${HOW_TO_CONFIGURE}` };
}

/** A trimmed value, or undefined when unset or blank. */
function value(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
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

/** With no provider named, the first key or server found in the environment picks one. */
function detectProvider(flags: ModelFlags, env: Record<string, string | undefined>): string | undefined {
  if (value(env.ANTHROPIC_API_KEY)) return "anthropic";
  if (value(env.OPENAI_API_KEY) || value(env.OPENAI_BASE_URL) || value(flags.baseUrl)) return "openai";
  return undefined;
}

function resolveKnown(
  name: string,
  known: KnownProvider,
  flags: ModelFlags,
  env: Record<string, string | undefined>,
): ResolvedModelConfig {
  const baseUrl = value(flags.baseUrl) ?? value(env[known.baseUrlVar]);
  const urlProblem = checkUrl(baseUrl);
  if (urlProblem) return fail(urlProblem);
  const apiKey = value(flags.apiKey) ?? value(env[known.keyVar]) ?? (baseUrl ? NO_KEY_NEEDED : undefined);
  if (!apiKey) {
    return fail(`The ${name} provider needs an API key: set ${known.keyVar}.`);
  }
  const model = value(flags.model) ?? value(env.BOWLINE_MODEL) ?? known.defaultModel;
  return {
    ok: true,
    config: { provider: name, wireFormat: known.wireFormat, model, apiKey, ...(baseUrl ? { baseUrl } : {}) },
  };
}

function resolveCompatible(
  name: string,
  flags: ModelFlags,
  env: Record<string, string | undefined>,
): ResolvedModelConfig {
  const baseUrl = value(flags.baseUrl);
  if (!baseUrl) {
    const valid = [...KNOWN_PROVIDERS.keys()].join(", ");
    return fail(
      `Unknown provider "${name}". Valid providers are ${valid}; any other name is an ` +
        `OpenAI-compatible server and needs --base-url <url>.`,
    );
  }
  const urlProblem = checkUrl(baseUrl);
  if (urlProblem) return fail(urlProblem);
  const model = value(flags.model) ?? value(env.BOWLINE_MODEL);
  if (!model) return fail(`The ${name} provider needs --model <name>: the model name the server knows.`);
  const apiKey = value(flags.apiKey) ?? value(env.OPENAI_API_KEY) ?? NO_KEY_NEEDED;
  return { ok: true, config: { provider: name, wireFormat: "openai-chat", model, apiKey, baseUrl } };
}

/**
 * Resolves flags (falling back to BOWLINE_PROVIDER / BOWLINE_MODEL) and provider environment
 * variables into a model config, or a message telling the person how to configure one.
 */
export function resolveModelConfig(
  flags: ModelFlags,
  env: Record<string, string | undefined>,
): ResolvedModelConfig {
  const named = value(flags.provider) ?? value(env.BOWLINE_PROVIDER);
  const provider = named?.toLowerCase() ?? detectProvider(flags, env);
  if (!provider) return fail("No model is configured: no provider was chosen and no API key was found.");
  const known = KNOWN_PROVIDERS.get(provider);
  return known ? resolveKnown(provider, known, flags, env) : resolveCompatible(provider, flags, env);
}

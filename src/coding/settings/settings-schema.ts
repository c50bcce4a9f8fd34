import * as z from "zod/mini";

const reasoningSchema = z.strictObject({
  /** Thinking budget in tokens (Anthropic, Bedrock, Gemini); 0 turns thinking off. */
  budgetTokens: z.optional(z.int().check(z.nonnegative())),
  /** Reasoning effort (OpenAI reasoning models). */
  effort: z.optional(z.enum(["minimal", "low", "medium", "high"])),
});

const httpUrl = z.url({
  protocol: /^https?$/,
  error: "must be an http(s) URL, e.g. http://localhost:11434/v1",
});
const positiveInt = z.int().check(z.positive());
const name = z.string().check(z.minLength(1));

/**
 * A model for one mode: a model id of the same provider, or a provider and model (with its own
 * base URL when the provider is a server of yours).
 */
const modeModelSchema = z.union([
  name,
  z.strictObject({
    provider: z.optional(name),
    model: name,
    baseUrl: z.optional(httpUrl),
    maxOutputTokens: z.optional(positiveInt),
    reasoning: z.optional(reasoningSchema),
  }),
]);

/** `~/.bowline/settings.json` and `<workspace>/.bowline/settings.json`: every field optional. */
export const settingsFileSchema = z.object({
  /** A provider preset (`bowline models` lists them) or any name for an OpenAI-compatible server. */
  provider: z.optional(name),
  model: z.optional(name),
  baseUrl: z.optional(httpUrl),
  /** The key of `provider`. */
  apiKey: z.optional(name),
  /** API keys by provider name, e.g. `{ "openrouter": "sk-or-..." }`. */
  keys: z.optional(z.record(z.string(), name)),
  /** A different model for plan mode. */
  planModel: z.optional(modeModelSchema),
  /** A different model for act mode. */
  actModel: z.optional(modeModelSchema),
  maxOutputTokens: z.optional(positiveInt),
  reasoning: z.optional(reasoningSchema),
  /** AWS region (Bedrock). */
  region: z.optional(name),
});

export type SettingsFile = z.infer<typeof settingsFileSchema>;
export type ModeModel = NonNullable<SettingsFile["planModel"]>;

export const SETTING_NAMES: readonly string[] = Object.keys(settingsFileSchema.shape);

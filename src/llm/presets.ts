/**
 * Provider presets: the vendors Bowline knows by name, as data (presets.json). A preset says
 * which wire format a vendor speaks, where its API lives, how requests are authorised, and how
 * its server departs from the wire format (quirks). Adding a vendor is adding an entry.
 */
import * as z from "zod/mini";
import presetsData from "./presets.json" with { type: "json" };
import type { WireFormat } from "./types.js";

const wireFormatSchema = z.enum([
  "anthropic-messages",
  "openai-chat",
  "openai-responses",
  "gemini",
  "bedrock-converse",
] satisfies WireFormat[]);

const quirksSchema = z.strictObject({
  noStrict: z.optional(z.boolean()),
  noParallelToolCalls: z.optional(z.boolean()),
  reasoningField: z.optional(z.string()),
  noStreamUsage: z.optional(z.boolean()),
  maxTokensField: z.optional(z.enum(["max_tokens", "max_completion_tokens"])),
});

export const presetSchema = z.strictObject({
  /** The vendor's name as people know it, for listings and messages. */
  label: z.string(),
  wireFormat: wireFormatSchema,
  /**
   * How requests are authorised: `key` needs an API key; `none` is a server that needs none (a
   * key in `keyVars` is still sent when set); `aws` signs with the AWS credential chain (a bearer
   * token in `keyVars` is used when set).
   */
  auth: z.enum(["key", "none", "aws"]),
  /** Environment variables that hold the key, in order of preference. */
  keyVars: z.optional(z.array(z.string())),
  /** The API's base URL; absent when the SDK derives it (Bedrock: from the region). */
  baseUrl: z.optional(z.url({ protocol: /^https?$/ })),
  /** An environment variable that overrides the base URL. */
  baseUrlVar: z.optional(z.string()),
  /** The server has no well-known address: `--base-url` (or a setting) must give one. */
  needsBaseUrl: z.optional(z.boolean()),
  /** Environment variables that hold the region (Bedrock), in order of preference. */
  regionVars: z.optional(z.array(z.string())),
  /** The model used when none is chosen; absent when the server's models are the person's own. */
  defaultModel: z.optional(z.string()),
  quirks: z.optional(quirksSchema),
  /** Extra HTTP headers sent with every request. */
  headers: z.optional(z.record(z.string(), z.string())),
  /** Unknown models of this provider take images (every current model of a first-party API does). */
  unknownModelsTakeImages: z.optional(z.boolean()),
  /**
   * Where a local server lists the models it has: `path` (relative to the base URL, or from the
   * server's root when it starts with `/`) answers JSON whose `list` array holds objects with
   * the model's name in `id`.
   */
  listModels: z.optional(z.strictObject({ path: z.string(), list: z.string(), id: z.string() })),
});

export type ProviderPreset = z.infer<typeof presetSchema>;
export const presetsSchema = z.record(z.string().check(z.regex(/^[a-z][a-z0-9-]*$/)), presetSchema);

/** Every preset by name, in the order they are listed and detected. Validated by a test, not at start-up. */
export const PRESETS: Readonly<Record<string, ProviderPreset>> = presetsData as Record<
  string,
  ProviderPreset
>;

export const PRESET_NAMES: readonly string[] = Object.keys(PRESETS);

/** The preset of a provider name (case-insensitive), or undefined for a name Bowline does not know. */
export function findPreset(name: string): ProviderPreset | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(PRESETS, key) ? PRESETS[key] : undefined;
}

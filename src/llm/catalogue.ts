/**
 * The model catalogue (catalogue.json): context window, reply length, abilities and list prices
 * of the models Bowline knows. `models` is keyed by the maker's model id; `providers` holds the
 * fields a host sets differently (an open-weight model's price on Groq, say). Refreshed by
 * `npm run refresh-catalogue`.
 */
import * as z from "zod/mini";
import catalogueData from "./catalogue.json" with { type: "json" };
import { findPreset } from "./presets.js";
import type { ModelInfo } from "./types.js";

const pricesSchema = z.strictObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.optional(z.number()),
  cacheWrite: z.optional(z.number()),
});

const infoFields = {
  contextWindow: z.int().check(z.positive()),
  maxOutputTokens: z.int().check(z.positive()),
  supportsImages: z.boolean(),
  supportsNativeTools: z.boolean(),
  supportsReasoning: z.optional(z.boolean()),
  prices: z.optional(pricesSchema),
  promptVariant: z.optional(z.enum(["generic", "next-gen", "native", "compact", "gpt"])),
  thinking: z.optional(
    z.enum(["adaptive", "budget", "effort", "none"] satisfies NonNullable<ModelInfo["thinking"]>[]),
  ),
  fixedSampling: z.optional(z.boolean()),
  promptCaching: z.optional(z.boolean()),
};

const entrySchema = z.strictObject({
  ...infoFields,
  /** Other ids of the same model: local tags, hosts' names, older spellings. */
  aliases: z.optional(z.array(z.string())),
});

export const catalogueSchema = z.strictObject({
  $comment: z.optional(z.string()),
  models: z.record(z.string(), entrySchema),
  providers: z.record(z.string(), z.record(z.string(), z.partial(z.strictObject(infoFields)))),
});

export type Catalogue = z.infer<typeof catalogueSchema>;

export const CATALOGUE: Catalogue = catalogueData as Catalogue;

/** What is assumed of a model the catalogue does not know: a common context window, modest replies. */
export const UNKNOWN_MODEL_INFO: Readonly<ModelInfo> = {
  contextWindow: 128_000,
  maxOutputTokens: 8192,
  supportsImages: false,
  supportsNativeTools: true,
};

/** Bedrock's cross-region inference prefixes (`us.`, `global.`) and model makers (`anthropic.`). */
const BEDROCK_REGION = /^(us|us-gov|eu|apac|jp|au|ca|global)\./;
const BEDROCK_MAKER = /^(anthropic|meta|amazon|mistral|cohere|ai21|deepseek|openai|qwen|writer|moonshot)\./;

/**
 * The id a model is matched by, whatever host names it: lower case, without a vendor path
 * (`anthropic/…`, `accounts/fireworks/models/…`), Bedrock's region, maker and version
 * (`us.anthropic.…-v1:0`), routing or quantisation tags (`:free`, `:latest`, `-q4_K_M`) and a
 * date stamp (`-20250929`, `-2025-04-14`, `-2411`); dots, colons and underscores become dashes,
 * so `claude-sonnet-4.5` and `claude-sonnet-4-5` meet.
 */
export function modelKey(model: string): string {
  let id = model.trim().toLowerCase();
  id = id.slice(id.lastIndexOf("/") + 1);
  id = id.replace(BEDROCK_REGION, "").replace(BEDROCK_MAKER, "");
  id = id.replace(/-v\d+(:\d+)?$/, "");
  id = id.replace(/:(latest|free|beta|thinking|nitro|floor|online|extended|exacto)$/, "");
  id = id.replace(/-(q\d(_[a-z0-9]+)*|fp16|fp8|bf16)$/, "");
  id = id.replace(/-(latest|\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$/, "");
  return id.replace(/[._:]+/g, "-");
}

type Index = { models: Map<string, string>; providers: Map<string, Map<string, Partial<ModelInfo>>> };
const indexes = new WeakMap<Catalogue, Index>();

/** Maps of each model key (ids and aliases) to its catalogue id, and of each host's overrides. */
function indexOf(catalogue: Catalogue): Index {
  let index = indexes.get(catalogue);
  if (index) return index;
  index = { models: new Map(), providers: new Map() };
  for (const [id, entry] of Object.entries(catalogue.models)) {
    for (const name of [id, ...(entry.aliases ?? [])]) index.models.set(modelKey(name), id);
  }
  for (const [provider, overrides] of Object.entries(catalogue.providers)) {
    index.providers.set(
      provider,
      new Map(Object.entries(overrides).map(([id, info]) => [modelKey(id), info])),
    );
  }
  indexes.set(catalogue, index);
  return index;
}

/** The catalogue's id of a model, or undefined when it does not know it. */
export function catalogueId(model: string, catalogue: Catalogue = CATALOGUE): string | undefined {
  return indexOf(catalogue).models.get(modelKey(model));
}

/**
 * What the catalogue knows of a model as a provider serves it (`known`), or safe defaults for
 * one it does not know (`known: false`: callers should tell the person once).
 */
export function lookupModel(
  provider: string,
  model: string,
  catalogue: Catalogue = CATALOGUE,
): { info: ModelInfo; known: boolean } {
  const index = indexOf(catalogue);
  const key = modelKey(model);
  const id = index.models.get(key);
  const entry = id === undefined ? undefined : catalogue.models[id];
  if (!entry) {
    const images = findPreset(provider)?.unknownModelsTakeImages === true;
    return { info: { ...UNKNOWN_MODEL_INFO, ...(images ? { supportsImages: true } : {}) }, known: false };
  }
  const { aliases: _aliases, ...info } = entry;
  const override = index.providers.get(provider.toLowerCase())?.get(key);
  return { info: { ...info, ...override }, known: true };
}

// Refreshes the list prices in src/llm/catalogue.json from OpenRouter's public model listing
// (GET https://openrouter.ai/api/v1/models: per-token prices as strings, context_length), or from
// a saved copy of it. Only models of makers that OpenRouter bills at their own list price are
// taken; entries the listing does not have are kept as they are, and host overrides
// ("providers") are never touched. Context windows change only with --with-context, since
// OpenRouter lists the largest window a model offers (e.g. a 1M-token beta) rather than the
// default one.
//
//   npm run refresh-catalogue                              from openrouter.ai
//   npm run refresh-catalogue -- --from models.json        offline, from a saved listing
//   options: --catalogue FILE (default src/llm/catalogue.json), --with-context, --dry-run
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { modelKey } from "../src/llm/catalogue.ts";

export const DEFAULT_SOURCE = "https://openrouter.ai/api/v1/models";
const DEFAULT_CATALOGUE = fileURLToPath(new URL("../src/llm/catalogue.json", import.meta.url));

/** OpenRouter vendor prefixes whose price is the maker's own list price (open-weight models vary by host). */
const FIRST_PARTY = new Set(["anthropic", "openai", "google", "x-ai", "mistralai"]);

/** US dollars per token (a decimal string) as dollars per million tokens; undefined when absent or not a price. */
function perMillion(text) {
  const value = Number(text);
  if (text === undefined || text === null || text === "" || !Number.isFinite(value) || value < 0)
    return undefined;
  return Number((value * 1e6).toPrecision(6));
}

function pricesOf(pricing = {}) {
  const input = perMillion(pricing.prompt);
  const output = perMillion(pricing.completion);
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = perMillion(pricing.input_cache_read);
  const cacheWrite = perMillion(pricing.input_cache_write);
  return {
    input,
    output,
    ...(cacheRead !== undefined && cacheRead > 0 ? { cacheRead } : {}),
    ...(cacheWrite !== undefined && cacheWrite > 0 ? { cacheWrite } : {}),
  };
}

/** The listing's first-party models by model key; of ids that share a key, the shortest (undated) one. */
function indexListing(listing) {
  const byKey = new Map();
  for (const model of listing?.data ?? []) {
    if (typeof model?.id !== "string" || model.id.includes(":")) continue;
    if (!FIRST_PARTY.has(model.id.split("/")[0])) continue;
    const key = modelKey(model.id);
    const held = byKey.get(key);
    if (!held || model.id.length < held.id.length) byKey.set(key, model);
  }
  return byKey;
}

/**
 * Merges a listing into a catalogue: returns the new catalogue and which ids were updated or not
 * found. Pure; the input is not changed.
 */
export function mergeListing(catalogue, listing, { withContext = false } = {}) {
  const byKey = indexListing(listing);
  const models = {};
  const updated = [];
  const missing = [];
  for (const [id, entry] of Object.entries(catalogue.models)) {
    const found = [id, ...(entry.aliases ?? [])].map((name) => byKey.get(modelKey(name))).find(Boolean);
    if (!found) {
      missing.push(id);
      models[id] = entry;
      continue;
    }
    const next = { ...entry };
    const prices = pricesOf(found.pricing);
    if (prices) next.prices = { ...entry.prices, ...prices };
    if (withContext && Number.isInteger(found.context_length)) next.contextWindow = found.context_length;
    const maxOutput = found.top_provider?.max_completion_tokens;
    if (withContext && Number.isInteger(maxOutput)) next.maxOutputTokens = maxOutput;
    if (JSON.stringify(next) !== JSON.stringify(entry)) updated.push(id);
    models[id] = next;
  }
  return { catalogue: { ...catalogue, models }, updated, missing };
}

async function readListing(from) {
  if (/^https?:\/\//.test(from)) {
    const response = await fetch(from, { signal: AbortSignal.timeout(30_000) });
    if (!response.ok) throw new Error(`${from} answered HTTP ${response.status}`);
    return response.json();
  }
  return JSON.parse(readFileSync(from, "utf8"));
}

/** The catalogue as the repository's formatter (biome) writes it, so a refresh leaves a clean diff. */
function formatCatalogue(catalogue) {
  const text = `${JSON.stringify(catalogue, null, 2)}\n`;
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  const formatted = spawnSync(process.execPath, [biome, "format", "--stdin-file-path=catalogue.json"], {
    input: text,
    encoding: "utf8",
  });
  if (formatted.status !== 0) throw new Error(`biome could not format the catalogue: ${formatted.stderr}`);
  return formatted.stdout;
}

async function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      from: { type: "string", default: DEFAULT_SOURCE },
      catalogue: { type: "string", default: DEFAULT_CATALOGUE },
      "with-context": { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const listing = await readListing(values.from);
  const current = JSON.parse(readFileSync(values.catalogue, "utf8"));
  const result = mergeListing(current, listing, { withContext: values["with-context"] });
  if (!values["dry-run"]) writeFileSync(values.catalogue, formatCatalogue(result.catalogue));
  const verb = values["dry-run"] ? "would update" : "updated";
  process.stdout.write(
    `${verb} ${result.updated.length} model(s)${result.updated.length ? `: ${result.updated.join(", ")}` : ""}\n` +
      `kept ${result.missing.length} not in the listing: ${result.missing.join(", ")}\n`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`refresh-catalogue: ${error.message}\n`);
    process.exitCode = 1;
  });
}

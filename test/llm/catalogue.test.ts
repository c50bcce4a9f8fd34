import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
// @ts-expect-error: a plain .mjs script without type declarations
import { mergeListing } from "../../scripts/refresh-catalogue.mjs";
import {
  CATALOGUE,
  type Catalogue,
  catalogueId,
  catalogueSchema,
  lookupModel,
  modelKey,
  UNKNOWN_MODEL_INFO,
} from "../../src/llm/catalogue.js";

const REPO = resolve(import.meta.dirname, "..", "..");

describe("the model catalogue (catalogue.json)", () => {
  it("matches the schema", () => {
    const parsed = z.safeParse(catalogueSchema, CATALOGUE);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it("gives every model one key: no alias names two models", () => {
    const owner = new Map<string, string>();
    for (const [id, entry] of Object.entries(CATALOGUE.models)) {
      for (const name of [id, ...(entry.aliases ?? [])]) {
        const key = modelKey(name);
        expect(owner.get(key) ?? id, `${name} of ${id}`).toBe(id);
        owner.set(key, id);
      }
    }
  });

  it("overrides only models it knows", () => {
    for (const [provider, overrides] of Object.entries(CATALOGUE.providers)) {
      for (const id of Object.keys(overrides))
        expect(lookupModel(provider, id).known, `${provider} ${id}`).toBe(true);
    }
  });

  it("knows the main current models with their list prices", () => {
    expect(lookupModel("anthropic", "claude-sonnet-5-5")).toEqual({
      known: true,
      info: {
        contextWindow: 1_000_000,
        maxOutputTokens: 128_000,
        supportsImages: true,
        supportsNativeTools: true,
        supportsReasoning: true,
        prices: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
        thinking: "adaptive",
        fixedSampling: true,
        promptCaching: true,
      },
    });
    expect(lookupModel("openai-responses", "gpt-6.2-sol").info).toMatchObject({
      contextWindow: 1_050_000,
      maxOutputTokens: 128_000,
      prices: { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 },
    });
    expect(lookupModel("gemini", "gemini-4-argon").info).toMatchObject({
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      prices: { input: 4, output: 20, cacheRead: 0.2 },
    });
    for (const [provider, model] of [
      ["anthropic", "claude-opus-5-5"],
      ["anthropic", "claude-fable-5-2"],
      ["anthropic", "claude-haiku-5-5"],
      ["anthropic", "claude-sonnet-4-6"],
      ["anthropic", "claude-opus-4-1"],
      ["anthropic", "claude-haiku-4-5"],
      ["openai", "gpt-6-sol"],
      ["openai", "gpt-6.1-terra"],
      ["openai", "gpt-5.6-luna"],
      ["openai", "gpt-5.4"],
      ["openai", "gpt-4.1-mini"],
      ["openai", "o3"],
      ["openai", "gpt-4o"],
      ["gemini", "gemini-4-carbon"],
      ["gemini", "gemini-3.8-flash"],
      ["gemini", "gemini-2.5-flash"],
      ["deepseek", "deepseek-v4-pro"],
      ["xai", "grok-4.6"],
      ["mistral", "mistral-medium-latest"],
      ["mistral", "codestral-latest"],
    ]) {
      const { known, info } = lookupModel(provider!, model!);
      expect(known, model).toBe(true);
      expect(info.prices, model).toBeDefined();
    }
  });

  it("drops models their makers have retired everywhere", () => {
    for (const model of ["o4-mini", "o3-mini", "gpt-4.1-nano", "gemini-2.0-flash", "devstral-medium-2507"])
      expect(lookupModel("openrouter", model).known, model).toBe(false);
  });

  it("says how each model is asked to reason and whether it takes a temperature", () => {
    const reasoning = (model: string) => {
      const { thinking, fixedSampling } = lookupModel("any", model).info;
      return { thinking, fixedSampling };
    };
    // Claude 4.7 and later refuse manual budgets and sampling parameters; 4.6 takes adaptive thinking
    // but still a temperature; 4.5 and earlier take a budget.
    expect(reasoning("claude-opus-5-5")).toEqual({ thinking: "adaptive", fixedSampling: true });
    expect(reasoning("claude-opus-4-7")).toEqual({ thinking: "adaptive", fixedSampling: true });
    expect(reasoning("claude-sonnet-4-6")).toEqual({ thinking: "adaptive", fixedSampling: undefined });
    expect(reasoning("claude-haiku-4-5")).toEqual({ thinking: "budget", fixedSampling: undefined });
    expect(reasoning("gpt-6.2-sol")).toEqual({ thinking: "effort", fixedSampling: true });
    expect(reasoning("gpt-5")).toEqual({ thinking: "effort", fixedSampling: true });
    expect(reasoning("gpt-4.1")).toEqual({ thinking: "none", fixedSampling: undefined });
    expect(reasoning("gemini-4-argon")).toEqual({ thinking: "effort", fixedSampling: undefined });
    expect(reasoning("gemini-2.5-pro")).toEqual({ thinking: "budget", fixedSampling: undefined });
    expect(reasoning("deepseek-v4-flash").thinking).toBe("effort");
    expect(reasoning("my-finetune")).toEqual({ thinking: undefined, fixedSampling: undefined });
  });

  it("never marks a model that does not reason as taking a reasoning setting", () => {
    for (const [id, entry] of Object.entries(CATALOGUE.models)) {
      if (entry.thinking !== undefined && entry.thinking !== "none")
        expect(entry.supportsReasoning, id).toBe(true);
      if (entry.fixedSampling) expect(entry.supportsReasoning, id).toBe(true);
    }
  });

  it("the schema rejects a reasoning style it does not know", () => {
    const entry = { ...CATALOGUE.models["claude-sonnet-5-5"]! };
    const catalogue = (thinking: unknown) => ({ models: { m: { ...entry, thinking } }, providers: {} });
    expect(z.safeParse(catalogueSchema, catalogue("adaptive")).success).toBe(true);
    expect(z.safeParse(catalogueSchema, catalogue("extended")).success).toBe(false);
    expect(
      z.safeParse(catalogueSchema, { models: { m: { ...entry, fixedSampling: "yes" } }, providers: {} })
        .success,
    ).toBe(false);
  });

  it("matches the ids hosts use: vendor paths, Bedrock ids, date stamps, dotted versions, local tags", () => {
    const sonnet = lookupModel("anthropic", "claude-sonnet-5-5").info;
    for (const [provider, id] of [
      ["openrouter", "anthropic/claude-sonnet-5.5"],
      ["bedrock", "anthropic.claude-sonnet-5-5"],
      ["bedrock", "us.anthropic.claude-sonnet-5-5"],
      ["bedrock", "global.anthropic.claude-sonnet-5-5"],
      ["bedrock", "eu.anthropic.claude-sonnet-5-5"],
      ["anthropic", "Claude-Sonnet-5-5"],
    ]) {
      expect(lookupModel(provider!, id!), id).toEqual({ known: true, info: sonnet });
    }
    // Bedrock ids before the 4.6 generation carry a date and a version; Opus 4.6 keeps a bare `-v1`.
    const sonnet45 = lookupModel("anthropic", "claude-sonnet-4-5").info;
    for (const id of [
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "claude-sonnet-4-5-20250929",
      "anthropic/claude-sonnet-4.5",
    ]) {
      expect(lookupModel("bedrock", id).info, id).toEqual(sonnet45);
    }
    expect(catalogueId("global.anthropic.claude-opus-4-6-v1")).toBe("claude-opus-4-6");
    expect(catalogueId("anthropic/claude-opus-5.5")).toBe("claude-opus-5-5");
    expect(catalogueId("openai/gpt-6.2-sol")).toBe("gpt-6.2-sol");
    expect(catalogueId("gpt-6-2-sol")).toBe("gpt-6.2-sol");
    expect(catalogueId("gpt-5.6")).toBe("gpt-5.6-sol");
    expect(catalogueId("google/gemini-4-argon")).toBe("gemini-4-argon");
    expect(catalogueId("x-ai/grok-4.6")).toBe("grok-4.6");
    expect(catalogueId("deepseek/deepseek-v4-pro")).toBe("deepseek-v4-pro");
    expect(catalogueId("deepseek-chat")).toBe("deepseek-v4-flash");
    expect(catalogueId("mistralai/mistral-medium-3.5")).toBe("mistral-medium-3.5");
    expect(catalogueId("mistral-medium-3-5-26-04")).toBe("mistral-medium-3.5");
    expect(lookupModel("openai", "gpt-4.1-2025-04-14").info.prices?.input).toBe(2);
    expect(lookupModel("openrouter", "openai/gpt-4.1").info.prices?.input).toBe(2);
    expect(lookupModel("openrouter", "anthropic/claude-3.7-sonnet:thinking").known).toBe(true);
    expect(lookupModel("ollama", "qwen2.5-coder:latest").info.promptVariant).toBe("compact");
    expect(lookupModel("ollama", "qwen2.5-coder:32b").info.promptVariant).toBeUndefined();
    expect(lookupModel("ollama", "llama3.1:8b-instruct-q4_K_M").known).toBe(true);
    expect(lookupModel("ollama", "llama3.1:70b").known).toBe(false);
    expect(lookupModel("ollama", "llama3.1:8b").known).toBe(true);
    expect(lookupModel("fireworks", "accounts/fireworks/models/qwen3-coder-480b-a35b-instruct").known).toBe(
      true,
    );
  });

  it("takes a host's own price over the maker's", () => {
    expect(lookupModel("groq", "llama-3.3-70b-versatile").info).toMatchObject({
      maxOutputTokens: 32768,
      prices: { input: 0.59, output: 0.79 },
    });
    expect(lookupModel("together", "meta-llama/Llama-3.3-70B-Instruct-Turbo").info.prices).toEqual({
      input: 0.88,
      output: 0.88,
    });
    expect(lookupModel("ollama", "llama3.3").info.prices).toBeUndefined();
  });

  it("gives an unknown model safe defaults and says it is unknown", () => {
    const result = lookupModel("my-server", "my-finetune-7b");
    expect(result).toEqual({
      known: false,
      info: {
        contextWindow: 128_000,
        maxOutputTokens: 8192,
        supportsImages: false,
        supportsNativeTools: true,
      },
    });
    result.info.contextWindow = 1;
    expect(UNKNOWN_MODEL_INFO.contextWindow).toBe(128_000);
  });
});

const LISTING = {
  data: [
    {
      id: "anthropic/claude-sonnet-4.5",
      context_length: 1_000_000,
      top_provider: { max_completion_tokens: 64_000 },
      pricing: { prompt: "0.0000025", completion: "0.000012", input_cache_read: "0.00000025" },
    },
    { id: "openai/gpt-4o", context_length: 128_000, pricing: { prompt: "0.000002", completion: "0.000008" } },
    {
      id: "openai/gpt-4o-2024-05-13",
      context_length: 128_000,
      pricing: { prompt: "0.000005", completion: "0.000015" },
    },
    { id: "openai/gpt-5:free", context_length: 1, pricing: { prompt: "0", completion: "0" } },
    {
      id: "meta-llama/llama-3.3-70b-instruct",
      context_length: 8,
      pricing: { prompt: "0.0000001", completion: "0" },
    },
    {
      id: "google/gemini-2.5-pro",
      context_length: 1_048_576,
      pricing: { prompt: "-1", completion: "0.00001" },
    },
  ],
};

describe("refresh-catalogue", () => {
  it("takes first-party prices from the listing and keeps everything else", () => {
    const { catalogue, updated, missing } = mergeListing(CATALOGUE, LISTING) as {
      catalogue: Catalogue;
      updated: string[];
      missing: string[];
    };
    expect(updated.sort()).toEqual(["claude-sonnet-4-5", "gpt-4o"]);
    expect(catalogue.models["claude-sonnet-4-5"]).toEqual({
      ...CATALOGUE.models["claude-sonnet-4-5"],
      prices: { input: 2.5, output: 12, cacheRead: 0.25, cacheWrite: 3.75 },
    });
    // The undated id wins over a dated snapshot with the same key.
    expect(catalogue.models["gpt-4o"]!.prices).toEqual({ input: 2, output: 8, cacheRead: 1.25 });
    // Open-weight models are priced by their host, a listing with a bad price changes nothing.
    expect(catalogue.models["llama-3.3-70b"]).toEqual(CATALOGUE.models["llama-3.3-70b"]);
    expect(catalogue.models["gemini-2.5-pro"]).toEqual(CATALOGUE.models["gemini-2.5-pro"]);
    expect(catalogue.providers).toEqual(CATALOGUE.providers);
    expect(missing).toContain("deepseek-v4-pro");
    expect(Object.keys(catalogue.models)).toEqual(Object.keys(CATALOGUE.models));
  });

  it("changes context windows only when asked", () => {
    const { catalogue } = mergeListing(CATALOGUE, LISTING, { withContext: true }) as { catalogue: Catalogue };
    expect(catalogue.models["claude-sonnet-4-5"]).toMatchObject({
      contextWindow: 1_000_000,
      maxOutputTokens: 64_000,
    });
  });

  it("runs offline from a saved listing (--from FILE), writing the catalogue as the formatter would", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bowline-catalogue-"));
    const catalogueFile = join(dir, "catalogue.json");
    const listingFile = join(dir, "models.json");
    cpSync(join(REPO, "src", "llm", "catalogue.json"), catalogueFile);
    writeFileSync(listingFile, JSON.stringify(LISTING));
    const original = readFileSync(catalogueFile, "utf8");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/refresh-catalogue.mjs",
        "--from",
        listingFile,
        "--catalogue",
        catalogueFile,
      ],
      { cwd: REPO },
    );
    expect(stdout).toContain("updated 2 model(s): claude-sonnet-4-5, gpt-4o");
    const written = readFileSync(catalogueFile, "utf8");
    const changed = written.split("\n").filter((line, i) => line !== original.split("\n")[i]);
    // Only the changed prices differ, line for line.
    expect(changed.map((line) => line.trim())).toEqual([
      '"input": 2.5,',
      '"output": 12,',
      '"cacheRead": 0.25,',
      '"input": 2,',
      '"output": 8,',
    ]);
    expect(z.safeParse(catalogueSchema, JSON.parse(written)).success).toBe(true);
  });
});

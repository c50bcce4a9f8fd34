import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { HELP } from "../../src/hosts/cli/args.js";
import { catalogueId, lookupModel } from "../../src/llm/catalogue.js";
import { howToConfigure } from "../../src/llm/config.js";
import { findPreset, PRESET_NAMES, PRESETS, presetsSchema } from "../../src/llm/presets.js";

describe("provider presets (presets.json)", () => {
  it("match the schema", () => {
    const parsed = z.safeParse(presetsSchema, PRESETS);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it("the schema rejects what a typo would produce", () => {
    const good = PRESETS.openai!;
    expect(z.safeParse(presetsSchema, { x: { ...good, wireFormat: "openai-chats" } }).success).toBe(false);
    expect(z.safeParse(presetsSchema, { x: { ...good, quirks: { noStrcit: true } } }).success).toBe(false);
    expect(z.safeParse(presetsSchema, { x: { ...good, baseUrl: "ftp://host" } }).success).toBe(false);
    expect(z.safeParse(presetsSchema, { Bad_Name: good }).success).toBe(false);
  });

  it("cover the first-party APIs, the hosted OpenAI-compatible ones and the local servers", () => {
    expect(PRESET_NAMES).toEqual([
      "anthropic",
      "openai",
      "openai-responses",
      "gemini",
      "bedrock",
      "openrouter",
      "deepseek",
      "xai",
      "mistral",
      "groq",
      "together",
      "fireworks",
      "cerebras",
      "ollama",
      "lmstudio",
      "vllm",
    ]);
  });

  it("every preset can be reached: a key to find or none needed, and an address or a way to get one", () => {
    for (const [name, preset] of Object.entries(PRESETS)) {
      if (preset.auth === "key") expect(preset.keyVars?.length, name).toBeGreaterThan(0);
      const address =
        preset.baseUrl !== undefined || preset.needsBaseUrl || preset.wireFormat === "bedrock-converse";
      expect(address, name).toBe(true);
    }
  });

  it("every default model is in the catalogue", () => {
    for (const [name, preset] of Object.entries(PRESETS)) {
      if (preset.defaultModel)
        expect(catalogueId(preset.defaultModel), `${name}: ${preset.defaultModel}`).toBeDefined();
    }
  });

  it("Bedrock and OpenRouter default to the Anthropic default, in their own spelling", () => {
    const sonnet = catalogueId(PRESETS.anthropic!.defaultModel!);
    expect(sonnet).toBe("claude-sonnet-5-5");
    expect(PRESETS.bedrock!.defaultModel).toBe("global.anthropic.claude-sonnet-5-5");
    expect(catalogueId(PRESETS.bedrock!.defaultModel!)).toBe(sonnet);
    expect(catalogueId(PRESETS.openrouter!.defaultModel!)).toBe(sonnet);
  });

  it("first-party defaults are current models whose reasoning style the catalogue knows", () => {
    for (const name of ["anthropic", "openai", "openai-responses", "gemini", "bedrock", "deepseek", "xai"]) {
      const model = PRESETS[name]!.defaultModel!;
      const { known, info } = lookupModel(name, model);
      expect(known, `${name}: ${model}`).toBe(true);
      expect(info.thinking, `${name}: ${model}`).toBeDefined();
      expect(info.prices, `${name}: ${model}`).toBeDefined();
    }
  });

  it("local servers say where they list their models", () => {
    expect(PRESETS.ollama!.listModels).toEqual({ path: "/api/tags", list: "models", id: "name" });
    expect(PRESETS.lmstudio!.listModels).toEqual({ path: "models", list: "data", id: "id" });
  });

  it("are found by name in any case, and only by their own names", () => {
    expect(findPreset("Groq")).toBe(PRESETS.groq);
    expect(findPreset("constructor")).toBeUndefined();
    expect(findPreset("toString")).toBeUndefined();
  });

  it("are all named in --help and in the message for a missing configuration", () => {
    for (const name of PRESET_NAMES) {
      expect(HELP).toContain(name);
      expect(howToConfigure()).toContain(name);
    }
  });
});

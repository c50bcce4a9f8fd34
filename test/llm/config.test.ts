import { describe, expect, it } from "vitest";
import { resolveModelConfig } from "../../src/llm/config.js";
import type { ModelConfig } from "../../src/llm/types.js";

function configOf(result: ReturnType<typeof resolveModelConfig>): ModelConfig {
  if (!result.ok) throw new Error(`expected a config, got: ${result.message}`);
  return result.config;
}

function messageOf(result: ReturnType<typeof resolveModelConfig>): string {
  if (result.ok) throw new Error(`expected a message, got: ${JSON.stringify(result.config)}`);
  return result.message;
}

describe("resolveModelConfig", () => {
  describe("--provider anthropic", () => {
    it("uses ANTHROPIC_API_KEY and the default model", () => {
      const config = configOf(resolveModelConfig({ provider: "anthropic" }, { ANTHROPIC_API_KEY: "ak" }));
      expect(config).toEqual({
        provider: "anthropic",
        wireFormat: "anthropic-messages",
        model: "claude-sonnet-5-5",
        apiKey: "ak",
        baseUrl: "https://api.anthropic.com",
      });
    });

    it("takes the base URL from the flag over ANTHROPIC_BASE_URL, and the model from the flag", () => {
      const env = { ANTHROPIC_API_KEY: "ak", ANTHROPIC_BASE_URL: "http://env.example" };
      const flags = { provider: "anthropic", model: "claude-opus-4-1", baseUrl: "http://flag.example" };
      expect(configOf(resolveModelConfig(flags, env))).toMatchObject({
        model: "claude-opus-4-1",
        baseUrl: "http://flag.example",
      });
      expect(configOf(resolveModelConfig({ provider: "anthropic" }, env)).baseUrl).toBe("http://env.example");
    });

    it("prefers --api-key over the environment", () => {
      const env = { ANTHROPIC_API_KEY: "from-env" };
      expect(configOf(resolveModelConfig({ provider: "anthropic", apiKey: "from-flag" }, env)).apiKey).toBe(
        "from-flag",
      );
    });

    it("fails without a key, naming the variable", () => {
      const message = messageOf(resolveModelConfig({ provider: "anthropic" }, { OPENAI_API_KEY: "ok" }));
      expect(message).toContain("ANTHROPIC_API_KEY");
      expect(message).not.toContain("--api-key");
    });

    it("needs no key when a base URL points at a server", () => {
      const config = configOf(
        resolveModelConfig({ provider: "anthropic", baseUrl: "http://127.0.0.1:9999" }, {}),
      );
      expect(config).toMatchObject({ wireFormat: "anthropic-messages", apiKey: "not-needed" });
    });
  });

  describe("--provider openai", () => {
    it("uses OPENAI_API_KEY, OPENAI_BASE_URL and the default model", () => {
      const env = { OPENAI_API_KEY: "ok", OPENAI_BASE_URL: "https://proxy.example/v1" };
      expect(configOf(resolveModelConfig({ provider: "openai" }, env))).toEqual({
        provider: "openai",
        wireFormat: "openai-chat",
        model: "gpt-4.1",
        apiKey: "ok",
        baseUrl: "https://proxy.example/v1",
      });
    });

    it("fails without a key or base URL", () => {
      expect(messageOf(resolveModelConfig({ provider: "openai" }, { ANTHROPIC_API_KEY: "ak" }))).toContain(
        "OPENAI_API_KEY",
      );
    });
  });

  describe("another provider name", () => {
    it("is an OpenAI-compatible server at --base-url, needing no key", () => {
      const flags = { provider: "my-server", baseUrl: "http://localhost:8000/v1", model: "qwen2.5-coder" };
      expect(configOf(resolveModelConfig(flags, {}))).toEqual({
        provider: "my-server",
        wireFormat: "openai-chat",
        model: "qwen2.5-coder",
        apiKey: "not-needed",
        baseUrl: "http://localhost:8000/v1",
      });
    });

    it("sends OPENAI_API_KEY when one is set", () => {
      const flags = { provider: "my-proxy", baseUrl: "https://proxy.example/v1", model: "m" };
      expect(configOf(resolveModelConfig(flags, { OPENAI_API_KEY: "tk" })).apiKey).toBe("tk");
    });

    it("needs a model", () => {
      const message = messageOf(
        resolveModelConfig({ provider: "my-server", baseUrl: "http://localhost:8000/v1" }, {}),
      );
      expect(message).toContain("--model");
    });

    it("without --base-url is an unknown provider, and the message lists the valid ones", () => {
      const message = messageOf(
        resolveModelConfig({ provider: "gemeni", model: "x" }, { OPENAI_API_KEY: "ok" }),
      );
      expect(message).toContain('Unknown provider "gemeni"');
      expect(message).toContain("anthropic, openai, openai-responses, gemini, bedrock, openrouter");
      expect(message).toContain("--base-url");
    });

    it("rejects a base URL that is not http(s)", () => {
      const message = messageOf(
        resolveModelConfig({ provider: "my-server", baseUrl: "localhost:11434", model: "m" }, {}),
      );
      expect(message).toContain('"localhost:11434" is not an http(s) URL');
    });
  });

  describe("environment fallbacks", () => {
    it("reads BOWLINE_PROVIDER and BOWLINE_MODEL when the flags are absent", () => {
      const env = {
        BOWLINE_PROVIDER: "OpenAI",
        BOWLINE_MODEL: "gpt-4.1-mini",
        OPENAI_API_KEY: "ok",
        ANTHROPIC_API_KEY: "ak",
      };
      expect(configOf(resolveModelConfig({}, env))).toMatchObject({
        provider: "openai",
        model: "gpt-4.1-mini",
      });
    });

    it("lets the flags win over BOWLINE_PROVIDER and BOWLINE_MODEL", () => {
      const env = {
        BOWLINE_PROVIDER: "openai",
        BOWLINE_MODEL: "gpt-4.1-mini",
        OPENAI_API_KEY: "ok",
        ANTHROPIC_API_KEY: "ak",
      };
      const flags = { provider: "anthropic", model: "claude-haiku-4-5" };
      expect(configOf(resolveModelConfig(flags, env))).toMatchObject({
        provider: "anthropic",
        model: "claude-haiku-4-5",
      });
    });

    it("treats blank values as unset", () => {
      const env = { BOWLINE_PROVIDER: " ", ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "ok" };
      expect(configOf(resolveModelConfig({ model: "" }, env))).toMatchObject({
        provider: "openai",
        model: "gpt-4.1",
      });
    });
  });

  describe("with no provider named", () => {
    it("picks anthropic when ANTHROPIC_API_KEY is set", () => {
      const env = { ANTHROPIC_API_KEY: "ak", OPENAI_API_KEY: "ok" };
      expect(configOf(resolveModelConfig({}, env)).wireFormat).toBe("anthropic-messages");
    });

    it("picks openai when OPENAI_API_KEY is set", () => {
      expect(configOf(resolveModelConfig({}, { OPENAI_API_KEY: "ok" }))).toMatchObject({
        provider: "openai",
        apiKey: "ok",
      });
    });

    it("picks openai when only OPENAI_BASE_URL is set, needing no key", () => {
      expect(configOf(resolveModelConfig({}, { OPENAI_BASE_URL: "http://localhost:8080/v1" }))).toMatchObject(
        {
          provider: "openai",
          apiKey: "not-needed",
          baseUrl: "http://localhost:8080/v1",
        },
      );
    });

    it("explains every way to configure a model when nothing is configured", () => {
      const message = messageOf(resolveModelConfig({}, {}));
      expect(message.split("\n").length).toBeGreaterThan(4);
      for (const part of [
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "BOWLINE_PROVIDER",
        "BOWLINE_MODEL",
        "--provider",
        "--model",
        "--base-url",
        "--provider ollama --base-url http://localhost:11434/v1 --model qwen2.5-coder",
      ]) {
        expect(message).toContain(part);
      }
    });
  });

  describe("presets", () => {
    it("gemini takes GEMINI_API_KEY, else GOOGLE_API_KEY, and its public base URL", () => {
      expect(configOf(resolveModelConfig({ provider: "gemini" }, { GOOGLE_API_KEY: "gk" }))).toEqual({
        provider: "gemini",
        wireFormat: "gemini",
        model: "gemini-4-argon",
        apiKey: "gk",
        baseUrl: "https://generativelanguage.googleapis.com",
      });
      const both = { GEMINI_API_KEY: "first", GOOGLE_API_KEY: "second" };
      expect(configOf(resolveModelConfig({ provider: "gemini" }, both)).apiKey).toBe("first");
      expect(messageOf(resolveModelConfig({ provider: "gemini" }, {}))).toContain(
        "set GEMINI_API_KEY or GOOGLE_API_KEY",
      );
    });

    it("bedrock needs no key (the AWS credential chain) and takes the region from AWS_REGION", () => {
      const config = configOf(resolveModelConfig({ provider: "bedrock" }, { AWS_REGION: "eu-west-1" }));
      expect(config).toEqual({
        provider: "bedrock",
        wireFormat: "bedrock-converse",
        model: "global.anthropic.claude-sonnet-5-5",
        apiKey: "",
        region: "eu-west-1",
      });
      const token = { AWS_BEARER_TOKEN_BEDROCK: "bt", AWS_DEFAULT_REGION: "us-west-2" };
      expect(configOf(resolveModelConfig({ provider: "bedrock" }, token))).toMatchObject({
        apiKey: "bt",
        region: "us-west-2",
      });
    });

    it("openrouter sends its key, attribution header and quirks", () => {
      const config = configOf(resolveModelConfig({ provider: "openrouter" }, { OPENROUTER_API_KEY: "or" }));
      expect(config).toMatchObject({
        wireFormat: "openai-chat",
        apiKey: "or",
        baseUrl: "https://openrouter.ai/api/v1",
        model: "anthropic/claude-sonnet-5.5",
        headers: { "X-Title": "Bowline" },
        quirks: { reasoningField: "reasoning" },
      });
    });

    it.each([
      ["deepseek", "DEEPSEEK_API_KEY", "https://api.deepseek.com", { reasoningField: "reasoning_content" }],
      [
        "mistral",
        "MISTRAL_API_KEY",
        "https://api.mistral.ai/v1",
        { noStrict: true, maxTokensField: "max_tokens" },
      ],
      ["cerebras", "CEREBRAS_API_KEY", "https://api.cerebras.ai/v1", { noStrict: true }],
      ["groq", "GROQ_API_KEY", "https://api.groq.com/openai/v1", { reasoningField: "reasoning" }],
      ["xai", "XAI_API_KEY", "https://api.x.ai/v1", {}],
      ["together", "TOGETHER_API_KEY", "https://api.together.xyz/v1", {}],
      ["fireworks", "FIREWORKS_API_KEY", "https://api.fireworks.ai/inference/v1", {}],
    ])("%s reads %s and talks to %s", (provider, keyVar, baseUrl, quirks) => {
      const config = configOf(resolveModelConfig({ provider }, { [keyVar]: "secret" }));
      expect(config).toMatchObject({ provider, wireFormat: "openai-chat", apiKey: "secret", baseUrl });
      expect(config.quirks).toMatchObject(quirks);
      expect(messageOf(resolveModelConfig({ provider }, { OPENAI_API_KEY: "ok" }))).toContain(keyVar);
    });

    it("local servers need no key; --base-url moves them", () => {
      expect(configOf(resolveModelConfig({ provider: "ollama" }, {}))).toEqual({
        provider: "ollama",
        wireFormat: "openai-chat",
        model: "qwen2.5-coder",
        apiKey: "not-needed",
        baseUrl: "http://localhost:11434/v1",
        quirks: { reasoningField: "reasoning", maxTokensField: "max_tokens" },
      });
      const moved = { provider: "ollama", baseUrl: "http://gpu-box:11434/v1", model: "llama3.3" };
      expect(configOf(resolveModelConfig(moved, {}))).toMatchObject({ baseUrl: "http://gpu-box:11434/v1" });
    });

    it("lmstudio has no default model; vllm has no default address", () => {
      expect(messageOf(resolveModelConfig({ provider: "lmstudio" }, {}))).toContain("needs --model");
      expect(messageOf(resolveModelConfig({ provider: "vllm", model: "m" }, {}))).toContain(
        "needs --base-url",
      );
      const vllm = { provider: "vllm", model: "m", baseUrl: "http://h:8000/v1" };
      expect(configOf(resolveModelConfig(vllm, { VLLM_API_KEY: "vk" }))).toMatchObject({ apiKey: "vk" });
    });

    it("is chosen by the first key found when no provider is named", () => {
      expect(configOf(resolveModelConfig({}, { GEMINI_API_KEY: "g" })).provider).toBe("gemini");
      expect(configOf(resolveModelConfig({}, { DEEPSEEK_API_KEY: "d", GROQ_API_KEY: "g" })).provider).toBe(
        "deepseek",
      );
    });

    it("takes the provider name in any case", () => {
      expect(
        configOf(resolveModelConfig({ provider: "OpenRouter" }, { OPENROUTER_API_KEY: "k" })).provider,
      ).toBe("openrouter");
    });
  });

  describe("settings (defaults)", () => {
    it("are weaker than the environment and the flags", () => {
      const defaults = { provider: "openai", model: "gpt-4.1-mini", apiKey: "from-settings" };
      expect(configOf(resolveModelConfig({}, {}, defaults))).toMatchObject({
        provider: "openai",
        model: "gpt-4.1-mini",
        apiKey: "from-settings",
      });
      const env = { OPENAI_API_KEY: "from-env", BOWLINE_MODEL: "gpt-5" };
      expect(configOf(resolveModelConfig({}, env, defaults))).toMatchObject({
        model: "gpt-5",
        apiKey: "from-env",
      });
      expect(configOf(resolveModelConfig({ model: "o3" }, env, defaults)).model).toBe("o3");
    });

    it("keep their model, URL and key with their provider when another provider is chosen", () => {
      const defaults = {
        provider: "anthropic",
        model: "claude-opus-4-1",
        baseUrl: "http://anthropic-proxy.example",
        apiKey: "ak",
        maxOutputTokens: 4000,
      };
      const config = configOf(resolveModelConfig({ provider: "openai" }, { OPENAI_API_KEY: "ok" }, defaults));
      expect(config).toMatchObject({
        provider: "openai",
        model: "gpt-4.1",
        apiKey: "ok",
        baseUrl: "https://api.openai.com/v1",
        maxOutputTokens: 4000,
      });
    });

    it("hold keys by provider, which also pick the provider", () => {
      const defaults = { keys: { openrouter: "or-key" } };
      expect(configOf(resolveModelConfig({}, {}, defaults))).toMatchObject({
        provider: "openrouter",
        apiKey: "or-key",
      });
      const custom = {
        provider: "my-proxy",
        baseUrl: "http://p.example/v1",
        model: "m",
        keys: { "my-proxy": "pk" },
      };
      expect(configOf(resolveModelConfig({}, { OPENAI_API_KEY: "ok" }, custom)).apiKey).toBe("pk");
    });

    it("never mistake an object's built-in names for keys", () => {
      const flags = { provider: "constructor", baseUrl: "http://h.example/v1", model: "m" };
      expect(configOf(resolveModelConfig(flags, {}, { keys: {} })).apiKey).toBe("not-needed");
    });

    it("carry reasoning and reply length, which flags override", () => {
      const defaults = { reasoning: { budgetTokens: 2048 }, maxOutputTokens: 9000 };
      const env = { ANTHROPIC_API_KEY: "ak" };
      expect(configOf(resolveModelConfig({}, env, defaults))).toMatchObject(defaults);
      expect(
        configOf(resolveModelConfig({ reasoning: { effort: "high" } }, env, defaults)).reasoning,
      ).toEqual({
        effort: "high",
      });
    });

    it("give Bedrock its region below AWS_REGION", () => {
      const defaults = { provider: "bedrock", region: "ap-south-1" };
      expect(configOf(resolveModelConfig({}, {}, defaults)).region).toBe("ap-south-1");
      expect(configOf(resolveModelConfig({}, { AWS_REGION: "us-east-2" }, defaults)).region).toBe(
        "us-east-2",
      );
    });
  });
});

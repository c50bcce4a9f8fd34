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
        model: "claude-sonnet-4-5",
        apiKey: "ak",
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
      const flags = { provider: "ollama", baseUrl: "http://localhost:11434/v1", model: "qwen2.5-coder" };
      expect(configOf(resolveModelConfig(flags, {}))).toEqual({
        provider: "ollama",
        wireFormat: "openai-chat",
        model: "qwen2.5-coder",
        apiKey: "not-needed",
        baseUrl: "http://localhost:11434/v1",
      });
    });

    it("sends OPENAI_API_KEY when one is set", () => {
      const flags = { provider: "together", baseUrl: "https://api.together.example/v1", model: "m" };
      expect(configOf(resolveModelConfig(flags, { OPENAI_API_KEY: "tk" })).apiKey).toBe("tk");
    });

    it("needs a model", () => {
      const message = messageOf(
        resolveModelConfig({ provider: "ollama", baseUrl: "http://localhost:11434/v1" }, {}),
      );
      expect(message).toContain("--model");
    });

    it("without --base-url is an unknown provider, and the message lists the valid ones", () => {
      const message = messageOf(
        resolveModelConfig({ provider: "gemeni", model: "x" }, { OPENAI_API_KEY: "ok" }),
      );
      expect(message).toContain('Unknown provider "gemeni"');
      expect(message).toContain("anthropic, openai");
      expect(message).toContain("--base-url");
    });

    it("rejects a base URL that is not http(s)", () => {
      const message = messageOf(
        resolveModelConfig({ provider: "ollama", baseUrl: "localhost:11434", model: "m" }, {}),
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
});

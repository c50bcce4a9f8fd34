import { describe, expect, it } from "vitest";
import { createModelClient } from "../../src/llm/create-client.js";
import type { ModelConfig } from "../../src/llm/types.js";

describe("createModelClient", () => {
  it.each(["anthropic-messages", "openai-chat"] as const)(
    "creates a %s client holding the config",
    async (wireFormat) => {
      const config: ModelConfig = {
        provider: "p",
        wireFormat,
        model: "m",
        apiKey: "k",
        baseUrl: "http://127.0.0.1:1",
      };
      const client = await createModelClient(config);
      expect(client.config).toBe(config);
      expect(typeof client.stream).toBe("function");
    },
  );

  it("rejects an unknown wire format", async () => {
    const config = {
      provider: "p",
      wireFormat: "smoke-signals",
      model: "m",
      apiKey: "k",
    } as unknown as ModelConfig;
    await expect(createModelClient(config)).rejects.toThrow("Unknown wire format: smoke-signals");
  });
});

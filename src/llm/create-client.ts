import type { ModelClient, ModelConfig } from "./types.js";

/**
 * Creates the client for the config's wire format. Only that adapter (and its SDK) is loaded,
 * so a bundle that never talks to a provider never evaluates its SDK.
 * Throws only when the config itself is invalid (e.g. a negative `maxRetries`).
 */
export async function createModelClient(config: ModelConfig): Promise<ModelClient> {
  switch (config.wireFormat) {
    case "anthropic-messages": {
      const { createAnthropicMessagesClient } = await import("./anthropic-messages.js");
      return createAnthropicMessagesClient(config);
    }
    case "openai-chat": {
      const { createOpenAiChatClient } = await import("./openai-chat.js");
      return createOpenAiChatClient(config);
    }
    case "openai-responses": {
      const { createOpenAiResponsesClient } = await import("./openai-responses.js");
      return createOpenAiResponsesClient(config);
    }
    case "gemini": {
      const { createGeminiClient } = await import("./gemini.js");
      return createGeminiClient(config);
    }
    case "bedrock-converse": {
      const { createBedrockConverseClient } = await import("./bedrock-converse.js");
      return createBedrockConverseClient(config);
    }
    default: {
      const unknown: never = config.wireFormat;
      throw new Error(`Unknown wire format: ${String(unknown)}`);
    }
  }
}

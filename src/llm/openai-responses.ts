/** Placeholder until the adapter lands. */
import type { ModelClient, ModelConfig } from "./types.js";

export function createOpenAiResponsesClient(_config: ModelConfig): ModelClient {
  throw new Error("The openai-responses wire format is not implemented yet.");
}

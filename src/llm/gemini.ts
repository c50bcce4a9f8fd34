/** Placeholder until the adapter lands. */
import type { ModelClient, ModelConfig } from "./types.js";

export function createGeminiClient(_config: ModelConfig): ModelClient {
  throw new Error("The gemini wire format is not implemented yet.");
}

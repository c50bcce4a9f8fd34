/** Placeholder until the adapter lands. */
import type { ModelClient, ModelConfig } from "./types.js";

export function createBedrockConverseClient(_config: ModelConfig): ModelClient {
  throw new Error("The bedrock-converse wire format is not implemented yet.");
}

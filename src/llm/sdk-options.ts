import type { ModelConfig } from "./types.js";

/** The options both official SDK clients take alike. */
export function sdkClientOptions(config: ModelConfig) {
  return {
    apiKey: config.apiKey,
    baseURL: config.baseUrl ?? null,
    maxRetries: config.maxRetries ?? 2,
    // Failures reach the caller as error events; the SDK must not write to the terminal.
    logLevel: "off" as const,
    ...(config.timeoutMs !== undefined ? { timeout: config.timeoutMs } : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
    ...(config.headers ? { defaultHeaders: config.headers } : {}),
  };
}

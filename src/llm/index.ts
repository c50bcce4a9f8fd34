export { type ModelFlags, type ResolvedModelConfig, resolveModelConfig } from "./config.js";
export { createModelClient } from "./create-client.js";
export type * from "./types.js";

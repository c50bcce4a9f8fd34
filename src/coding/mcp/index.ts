export { createMcpAutoApprove } from "./approval.js";
export { answerMcpCommand, type McpCommandHub } from "./commands.js";
export {
  type LazySchemaMode,
  loadMcpConfig,
  type McpConfig,
  type McpConfigProblem,
  type McpServerConfig,
  projectMcpFile,
  userMcpFile,
} from "./config.js";
export { type McpFailureReason, McpServerError } from "./errors.js";
export type {
  McpCallResult,
  McpContent,
  McpHub,
  McpPromptInfo,
  McpResourceInfo,
  McpServerInfo,
  McpServerStatus,
  McpToolInfo,
} from "./hub.js";
export {
  createMcpHub,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type McpHubOptions,
  type McpPromptMessage,
  openMcpHub,
  type RunningMcpHub,
} from "./mcp-hub.js";
export { createMcpOffer, LAZY_SCHEMA_SHARE, type McpOffer } from "./mcp-offer.js";
export { isTrusted, trustFile, trustServer } from "./trust.js";

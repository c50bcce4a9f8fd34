/**
 * Everything of the MCP SDK that runs, loaded only through `loadMcpSdk` (load-sdk.ts): the SDK
 * defines hundreds of schemas when it loads, which would delay every start of Bowline, when
 * most have no MCP server or start theirs once the first model request is on its way. Other
 * modules import only its types.
 */
export { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { isTransportFailure, openTransport } from "./transports.js";

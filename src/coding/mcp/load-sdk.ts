export type McpSdk = typeof import("./sdk.js");

let loaded: McpSdk | undefined;

/** The running parts of the MCP SDK (sdk.ts), loaded on first use. */
export async function loadMcpSdk(): Promise<McpSdk> {
  loaded ??= await import("./sdk.js");
  return loaded;
}

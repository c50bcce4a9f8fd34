/**
 * The running parts of the MCP SDK (src/coding/mcp/sdk.ts) go in a bundle of their own,
 * `mcp-sdk.cjs` beside the bundle that loads it, required when a server connects: the SDK
 * defines hundreds of schemas as it loads, a cost every start would pay otherwise. (Inside one
 * bundle a lazy import() would defer that, but esbuild then wraps zod, shared with the eager
 * code, in lazy initialisers that the eager code does not call: "ZodMiniEnum is not a
 * constructor" at start-up.) Used by the CLI build and by the benchmarks' bundles.
 */
export const MCP_SDK_ENTRY = "src/coding/mcp/sdk.ts";

export const mcpSdkExternal = {
  name: "mcp-sdk-external",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      args.importer.endsWith("load-sdk.ts") ? { path: "./mcp-sdk.cjs", external: true } : undefined,
    );
  },
};

// Builds the CLI into dist/, all CommonJS (it starts faster than ESM on Node 20): a tiny entry
// (dist/cli.js) that parses arguments and answers --version/--help itself, and one bundle per
// command (dist/run.cjs, dist/demo.cjs), the interactive TUI (dist/tui.cjs), the MCP SDK
// (dist/mcp-sdk.cjs) and per model adapter, loaded with a V8 code cache
// (src/hosts/cli/load-bundle.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { inkCommonJs } from "./ink-cjs.mjs";
import { MCP_SDK_ENTRY, mcpSdkExternal } from "./mcp-sdk-external.mjs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  minify: true,
  sourcemap: false,
  // ripgrep finds its binary relative to its own package, so it stays a runtime dependency.
  // Packages that find files (binaries, wasm grammars, browsers) relative to themselves stay
  // runtime dependencies, loaded on first use.
  external: [
    "@vscode/ripgrep",
    "web-tree-sitter",
    "@vscode/tree-sitter-wasm",
    "playwright-core",
    "turndown",
    "unpdf",
    // The Gemini and Bedrock SDKs are large and load only in their own adapter bundles.
    "@google/genai",
    "@aws-sdk/client-bedrock-runtime",
  ],
  define: { BOWLINE_VERSION: JSON.stringify(pkg.version) },
  logLevel: "warning",
};

const moduleUrlShim = {
  define: { ...common.define, "import.meta.url": "__bowlineModuleUrl" },
  banner: 'const __bowlineModuleUrl = require("node:url").pathToFileURL(__filename).href;',
};

mkdirSync(new URL("../dist", import.meta.url), { recursive: true });
// dist/cli.js is CommonJS although the package is "type": "module".
writeFileSync(new URL("../dist/package.json", import.meta.url), '{ "type": "commonjs" }\n');

await build({
  ...common,
  entryPoints: { cli: "src/hosts/cli/main.ts" },
  outdir: "dist",
  format: "cjs",
  define: moduleUrlShim.define,
  banner: { js: `#!/usr/bin/env node\n${moduleUrlShim.banner}` },
});

/** Each model adapter (and its SDK) is a bundle of its own, loaded only when a task uses it. */
const adapters = {
  "./anthropic-messages.js": "llm-anthropic-messages",
  "./openai-chat.js": "llm-openai-chat",
  "./openai-responses.js": "llm-openai-responses",
  "./gemini.js": "llm-gemini",
  "./bedrock-converse.js": "llm-bedrock-converse",
};
const adaptersExternal = {
  name: "adapters-external",
  setup(pluginBuild) {
    pluginBuild.onResolve(
      { filter: /^\.\/(anthropic-messages|openai-chat|openai-responses|gemini|bedrock-converse)\.js$/ },
      (args) =>
        args.importer.endsWith("create-client.ts")
          ? { path: `./${adapters[args.path]}.cjs`, external: true }
          : undefined,
    );
  },
};

/** The interactive TUI (Ink, React) is a bundle of its own: runs without a terminal never load it. */
const tuiExternal = {
  name: "tui-external",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/tui\/index\.js$/ }, (args) =>
      args.importer.endsWith("run.ts") ? { path: "./tui.cjs", external: true } : undefined,
    );
  },
};

await build({
  ...common,
  entryPoints: {
    run: "src/hosts/cli/run.ts",
    demo: "src/hosts/cli/demo.ts",
    "mcp-sdk": MCP_SDK_ENTRY,
    ...Object.fromEntries(
      Object.entries(adapters).map(([source, bundle]) => [bundle, `src/llm/${source.slice(2, -3)}.ts`]),
    ),
  },
  plugins: [adaptersExternal, mcpSdkExternal, tuiExternal],
  // import() becomes require(), so bundles load through the code-cached CommonJS path.
  supported: { "dynamic-import": false },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  define: moduleUrlShim.define,
  banner: { js: moduleUrlShim.banner },
});

await build({
  ...common,
  entryPoints: { tui: "src/hosts/tui/index.ts" },
  plugins: [inkCommonJs],
  supported: { "dynamic-import": false },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  // React's production build: smaller, and no development checks at every render.
  define: { ...moduleUrlShim.define, "process.env.NODE_ENV": '"production"' },
  banner: { js: moduleUrlShim.banner },
});

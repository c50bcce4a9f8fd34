// Bundles the CLI into dist/ with code splitting, so each command loads only its own code.
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: "src/hosts/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  sourcemap: "linked",
  chunkNames: "chunks/[name]-[hash]",
  // ripgrep finds its binary relative to its own package, so it stays a runtime dependency.
  external: ["@vscode/ripgrep"],
  banner: {
    js: [
      "#!/usr/bin/env node",
      'import { createRequire as __bowlineCreateRequire } from "node:module";',
      "const require = __bowlineCreateRequire(import.meta.url);",
    ].join("\n"),
  },
  define: { BOWLINE_VERSION: JSON.stringify(pkg.version) },
  logLevel: "warning",
});

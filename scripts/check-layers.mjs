// Fails when an import points up a layer (protocol <- llm <- agent <- coding <- hosts), or a
// host imports another host. Run by `npm run lint` and CI.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(process.argv[2] ?? resolve(dirname(new URL(import.meta.url).pathname), ".."));
const order = ["protocol", "llm", "agent", "coding", "hosts"];
/** Files allowed to reach outside src/ (the demo bundles the scripted fake model server). */
const allowedOutside = new Map([["src/hosts/cli/demo.ts", ["test/support/"]]]);
/** Host pairs allowed through one entry file: the CLI launches the terminal UI on a terminal. */
const allowedHostEntries = new Map([["cli", ["src/hosts/tui/index.ts"]]]);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield path;
  }
}

const layerOf = (rel) => {
  const [top, layer, host] = rel.split("/");
  return top === "src"
    ? { layer, rank: order.indexOf(layer), host: layer === "hosts" ? host : undefined }
    : undefined;
};

const problems = [];
const importPattern = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
for (const file of files(join(root, "src"))) {
  const rel = relative(root, file);
  const from = layerOf(rel);
  if (from.rank < 0) problems.push(`${rel}: not in a known layer (${order.join(", ")})`);
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(importPattern)) {
    const spec = match[1] ?? match[2];
    if (!spec.startsWith(".")) continue;
    const target = relative(root, resolve(dirname(file), spec));
    const to = layerOf(target);
    if (!to) {
      const allowed = allowedOutside.get(rel) ?? [];
      if (!allowed.some((prefix) => target.startsWith(prefix)))
        problems.push(`${rel}: imports ${spec} outside src/`);
      continue;
    }
    if (to.rank > from.rank) problems.push(`${rel}: ${from.layer} must not import ${to.layer} (${spec})`);
    const entries = allowedHostEntries.get(from.host) ?? [];
    const viaEntry = entries.includes(target.replace(/\.js$/, ".ts"));
    if (from.host && to.host && from.host !== to.host && !viaEntry)
      problems.push(`${rel}: host ${from.host} must not import host ${to.host} (${spec})`);
  }
}
if (problems.length > 0) {
  console.error(`Layer check failed:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
console.log("Layer check passed.");

import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

type CompilingModule = {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
};

const distDir = dirname(fileURLToPath(import.meta.url));
const requireHere = createRequire(import.meta.url);

/**
 * Loads one of the CLI's CommonJS bundles (`dist/<name>.cjs`). Every bundle under dist/ is
 * compiled with a V8 code cache, so a start skips compiling most of Bowline's JavaScript
 * (Node 20 has no built-in module compile cache). The cache lives in
 * `$XDG_CACHE_HOME/bowline` (default `~/.cache/bowline`), keyed by the bundle's size and mtime
 * and the Node version; `BOWLINE_NO_CODE_CACHE=1` turns it off. A missing, stale or
 * unwritable cache only costs speed, never correctness.
 */
export function loadBundle<T>(name: string): T {
  if (!process.env.BOWLINE_NO_CODE_CACHE) installCodeCache();
  return requireHere(join(distDir, `${name}.cjs`)) as T;
}

let installed = false;

function installCodeCache(): void {
  if (installed) return;
  installed = true;
  const Module = requireHere("node:module") as { prototype: CompilingModule };
  const original = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename) {
    if (!filename.startsWith(distDir + sep) || !filename.endsWith(".cjs"))
      return original.call(this, content, filename);
    const cacheFile = cachePath(filename);
    const cachedData = readOptional(cacheFile);
    const wrapped = `(function (exports, require, module, __filename, __dirname) {${content}\n})`;
    // The bundles are built without dynamic import() (esbuild turns it into require), so the
    // script needs no dynamic-import callback.
    const script = new Script(wrapped, { filename, cachedData });
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
    if (cachedData === undefined || script.cachedDataRejected) {
      // Written at exit, so the functions compiled during this run are in the cache too.
      process.once("exit", () => writeOptional(cacheFile, () => script.createCachedData()));
    }
    return undefined;
  };
}

/** `<cache dir>/<bundle path>--<size>-<mtime>-<node version>-<arch>.bin` */
function cachePath(file: string): string {
  const { size, mtimeMs } = statSync(file);
  const root = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  const version = `${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}`;
  return join(root, "bowline", "code-cache", `${bundleKey(file)}--${version}.bin`);
}

const bundleKey = (file: string) => file.replace(/[^A-Za-z0-9]+/g, "_").slice(-80);

function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined; // no cache yet
  }
}

function writeOptional(path: string, data: () => Buffer): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, data());
    // Caches of earlier builds of the same bundle are dead weight.
    const prefix = `${basename(path).split("--")[0]}--`;
    for (const old of readdirSync(dir))
      if (old.startsWith(prefix) && old !== basename(path)) rmSync(join(dir, old));
  } catch {
    // A read-only home or full disk: the next start compiles again, nothing else changes.
  }
}

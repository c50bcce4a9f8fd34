// An esbuild plugin that lets Ink bundle as CommonJS (the CLI's bundles are CommonJS, loaded with
// a V8 code cache). Ink and its layout engine use top-level await in three places, which
// CommonJS cannot express:
// - yoga-layout instantiates its WebAssembly asynchronously: here it is instantiated
//   synchronously through Emscripten's `instantiateWasm` hook (the module is small);
// - Ink's reconciler awaits React DevTools and its package.json only when DEV=true: dropped.
// Each rewrite checks that the text it replaces is there, so a dependency update that changes it
// fails the build instead of shipping a broken bundle.
import { readFile } from "node:fs/promises";

const rewrites = [
  {
    file: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
    // Hands the embedded wasm (a data: URI) to the hook as a third argument.
    from: /h\.instantiateWasm\(d,\s*a\)/,
    to: "h.instantiateWasm(d,a,H)",
  },
  {
    file: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/,
    from: "const Yoga = wrapAssembly(await loadYoga());",
    to: `const yogaModule = {
  instantiateWasm(imports, receive, dataUri) {
    const bytes = Buffer.from(dataUri.slice(dataUri.indexOf(",") + 1), "base64");
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
    receive(instance);
    return instance.exports;
  },
};
loadYoga(yogaModule);
const Yoga = wrapAssembly(yogaModule);`,
  },
  {
    file: /ink[\\/]build[\\/]reconciler\.js$/,
    from: "await import('./devtools.js');",
    to: "throw Object.assign(new Error('React DevTools are not bundled'), { code: 'ERR_MODULE_NOT_FOUND' });",
  },
  {
    file: /ink[\\/]build[\\/]reconciler\.js$/,
    from: "? await loadPackageJson()",
    to: "? { name: 'ink', version: undefined }",
  },
];

export const inkCommonJs = {
  name: "ink-cjs",
  setup(build) {
    build.onLoad({ filter: /(yoga-layout|ink)[\\/].*\.js$/ }, async (args) => {
      const applicable = rewrites.filter((rewrite) => rewrite.file.test(args.path));
      if (applicable.length === 0) return undefined;
      let contents = await readFile(args.path, "utf8");
      for (const rewrite of applicable) {
        const found =
          typeof rewrite.from === "string" ? contents.includes(rewrite.from) : rewrite.from.test(contents);
        if (!found) throw new Error(`ink-cjs: ${args.path} no longer contains ${String(rewrite.from)}`);
        contents = contents.replace(rewrite.from, rewrite.to);
      }
      return { contents, loader: "js" };
    });
  },
};

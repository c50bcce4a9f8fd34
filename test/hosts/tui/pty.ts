/**
 * Runs a bundled entry script in a pseudo-terminal (@lydell/node-pty) and keeps a headless
 * xterm (@xterm/headless) in step with its output, so tests read the screen as a person sees it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pty from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { type BuildOptions, build, type Plugin } from "esbuild";
import { REPO_ROOT } from "../../support/cli.js";

/**
 * Bundles `entry` as CommonJS the way scripts/build.mjs bundles the CLI (Ink through the
 * plugin that removes its top-level awaits), into a temporary folder.
 */
export async function bundleEntry(entry: string): Promise<string> {
  const { inkCommonJs } = (await import(pathToFileURL(join(REPO_ROOT, "scripts", "ink-cjs.mjs")).href)) as {
    inkCommonJs: Plugin;
  };
  const { MCP_SDK_ENTRY, mcpSdkExternal } = (await import(
    pathToFileURL(join(REPO_ROOT, "scripts", "mcp-sdk-external.mjs")).href
  )) as { MCP_SDK_ENTRY: string; mcpSdkExternal: Plugin };
  const outdir = mkdtempSync(join(tmpdir(), "bowline-tui-bundle-"));
  const outfile = join(outdir, "entry.cjs");
  const options = {
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    // As in the CLI's bundles: import() becomes require(), which finds packages through NODE_PATH.
    supported: { "dynamic-import": false },
    jsx: "automatic",
    external: [
      "@vscode/ripgrep",
      "web-tree-sitter",
      "@vscode/tree-sitter-wasm",
      "playwright-core",
      "turndown",
      "unpdf",
    ],
    define: { "import.meta.url": "__moduleUrl", "process.env.NODE_ENV": '"production"' },
    banner: { js: 'const __moduleUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "error",
  } satisfies BuildOptions;
  await build({ ...options, entryPoints: [entry], outfile, plugins: [inkCommonJs, mcpSdkExternal] });
  // The MCP SDK beside it, as in dist/ (see scripts/mcp-sdk-external.mjs).
  await build({
    ...options,
    entryPoints: [join(REPO_ROOT, MCP_SDK_ENTRY)],
    outfile: join(outdir, "mcp-sdk.cjs"),
  });
  return outfile;
}

/** Output is taken as a whole frame once nothing more arrived for this long. */
const QUIET_MS = 40;

export interface PtyRun {
  term: xterm.Terminal;
  /** Everything the program wrote, raw. */
  output(): string;
  /** The visible screen, one string per row, right-trimmed. */
  screen(): string[];
  /** Waits until the screen shows `text` (or `predicate` holds); rejects with the screen after the timeout. */
  waitFor(text: string | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  press(data: string): void;
  /** Calls `listener` with each chunk the program writes; returns the unsubscribe. */
  onData(listener: (data: string) => void): () => void;
  pid: number;
  exited: Promise<number>;
  kill(): void;
}

/** Starts `node <script> [args]` in a terminal of `cols` × `rows`. CI variables are removed: Ink draws nothing live in CI. */
export function runInPty(
  script: string,
  options: {
    cwd: string;
    env: Record<string, string | undefined>;
    cols?: number;
    rows?: number;
    nodeArgs?: string[];
    /** Arguments for the script. */
    args?: string[];
  },
): PtyRun {
  const cols = options.cols ?? 80;
  const rows = options.rows ?? 24;
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...options.env }))
    if (value !== undefined && key !== "CI" && key !== "CONTINUOUS_INTEGRATION") env[key] = value;
  env.TERM = "xterm-256color";
  env.NODE_PATH = join(REPO_ROOT, "node_modules");
  const child = pty.spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...(options.args ?? [])], {
    name: "xterm-256color",
    cols,
    rows,
    cwd: options.cwd,
    env,
  });
  let raw = "";
  const waiters = new Set<() => void>();
  const listeners = new Set<(data: string) => void>();
  child.onData((data) => {
    raw += data;
    for (const listener of listeners) listener(data);
    term.write(data, () => {
      for (const waiter of waiters) waiter();
    });
  });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  const screen = () => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = buffer.viewportY; y < buffer.viewportY + rows; y++)
      lines.push(buffer.getLine(y)?.translateToString(true) ?? "");
    return lines;
  };
  return {
    term,
    output: () => raw,
    screen,
    waitFor(text, timeoutMs = 15_000) {
      const test = typeof text === "string" ? (s: string) => s.includes(text) : text;
      return new Promise((resolve, reject) => {
        // A frame can arrive in several chunks: the screen is read once output pauses.
        let quiet: NodeJS.Timeout | undefined;
        const check = () => {
          clearTimeout(quiet);
          quiet = setTimeout(() => {
            const shown = screen().join("\n");
            if (!test(shown)) return;
            cleanup();
            resolve(shown);
          }, QUIET_MS);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`timed out waiting for ${String(text)}; the screen shows:\n${screen().join("\n")}`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          clearTimeout(quiet);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    press: (data) => child.write(data),
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pid: child.pid,
    exited,
    kill: () => child.kill(),
  };
}

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { rgPath } from "@vscode/ripgrep";
import type { ToolContext } from "../src/agent/tool.js";
import { createListFilesTool } from "../src/coding/tools/list-files.js";
import { createSearchFilesTool } from "../src/coding/tools/search-files.js";
import { createWorkspace } from "../src/coding/workspace.js";
import { median, round } from "./support.js";

/**
 * search_files (through the tool) against bare rg on the same query, and a recursive list_files,
 * on a generated tree of 50,000 files (kept in the temp dir and reused between runs).
 */
const FILES = 50_000;
const TREE_VERSION = "v3";
const QUERY = "function\\s+\\w+Parser";
const targets = { searchOverRg: 1.5, listMs: 300 };

export async function benchSearch(runs = Number(process.env.BENCH_RUNS ?? 7)) {
  const root = await ensureTree();
  const workspace = createWorkspace(root);
  const search = createSearchFilesTool({ workspace });
  const list = createListFilesTool({ workspace });
  const ctx = benchContext();
  const rgArgs = [
    "--json",
    "--context",
    "1",
    "--regexp",
    QUERY,
    "--hidden",
    "--no-require-git",
    "--no-config",
  ];

  // Warm the page cache and the lazy imports.
  await search.execute({ path: ".", regex: QUERY }, ctx);
  await runRg(rgArgs, root);
  await list.execute({ path: ".", recursive: true }, ctx);

  const rgMs: number[] = [];
  const toolMs: number[] = [];
  const listMs: number[] = [];
  let matches = 0;
  for (let i = 0; i < runs; i++) {
    rgMs.push(await time(() => runRg(rgArgs, root)));
    toolMs.push(
      await time(async () => {
        matches = (await search.execute({ path: ".", regex: QUERY }, ctx)).details?.matches ?? 0;
      }),
    );
    listMs.push(await time(() => list.execute({ path: ".", recursive: true }, ctx)));
  }
  const searchOverRg = round(median(toolMs) / median(rgMs));
  const listMedian = round(median(listMs), 1);
  return {
    files: FILES,
    root,
    query: QUERY,
    matches,
    rgMs: round(median(rgMs), 1),
    searchFilesMs: round(median(toolMs), 1),
    searchOverRg,
    listFilesRecursiveMs: listMedian,
    targets,
    met: { searchOverRg: searchOverRg <= targets.searchOverRg, listMs: listMedian < targets.listMs },
  };
}

async function time(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

function runRg(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

function benchContext(): ToolContext {
  return {
    taskId: "bench",
    callId: "bench",
    signal: new AbortController().signal,
    onProgress: () => {},
    askUser: async () => "",
  };
}

/** A deterministic tree: 50 packages × 10 dirs × 100 files, sizes 200 B – 6 KB, a few matches. */
async function ensureTree(): Promise<string> {
  const root = join(tmpdir(), `bowline-bench-search-${TREE_VERSION}`);
  if (existsSync(join(root, ".complete"))) return root;
  await fs.rm(root, { recursive: true, force: true });
  let seed = 42;
  // mulberry32: small, deterministic, well distributed.
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const words = [
    "value",
    "result",
    "config",
    "handler",
    "request",
    "token",
    "buffer",
    "index",
    "parse",
    "emit",
  ];
  const line = (i: number) => {
    const w = words[Math.floor(random() * words.length)]!;
    return random() < 0.5 ? `  const ${w}${i} = compute(${w}, ${i});` : `  // ${w} step ${i} of the pipeline`;
  };
  let written = 0;
  for (let pkg = 0; pkg < 50; pkg++) {
    for (let dir = 0; dir < 10; dir++) {
      const abs = join(root, `packages/pkg${pkg}/src/mod${dir}`);
      await fs.mkdir(abs, { recursive: true });
      const writes: Promise<void>[] = [];
      for (let file = 0; file < 100; file++) {
        const size = 200 + Math.floor(random() ** 2 * 5800);
        const lines = [`export function file${written}() {`];
        let length = 0;
        for (let i = 0; length < size; i++) {
          const text = random() < 0.0001 ? `function make${i}Parser() {}` : line(i);
          lines.push(text);
          length += text.length + 1;
        }
        lines.push("}");
        writes.push(fs.writeFile(join(abs, `file${file}.ts`), `${lines.join("\n")}\n`));
        written++;
      }
      await Promise.all(writes);
    }
  }
  await fs.writeFile(join(root, ".complete"), String(written));
  return root;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchSearch(), null, 2)}\n`);
}

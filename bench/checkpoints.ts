import { spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILT_IN_EXCLUDES, isUnavailable, openCheckpointStore } from "../src/coding/checkpoints/index.js";
import { median, now, round } from "./support.js";

/**
 * Checkpoints on a generated repository: the first checkpoint, a checkpoint after a 10-file
 * change, and the restore of that change, for Bowline's engine (its store watching the
 * workspace, as a task's does) and, in the same run on the same changes, Cline's method (a shadow
 * repo staging everything with `git add .` after two scans for nested `.git` folders, restore by
 * `git reset --hard`) and the floor (`git add -A` + `git write-tree` in a plain repository,
 * restore by `git read-tree --reset -u`).
 * Default 20,000 files (~200 MB); `full` (or BENCH_CHECKPOINTS_FULL=1) 100,000 files (~1 GB).
 */
const targets = { firstMs: 60_000, stepMs: 300, restoreMs: 500 };
const CHANGED = 10;

export interface CheckpointBenchOptions {
  full?: boolean;
  files?: number;
  runs?: number;
}

export async function benchCheckpoints(options: CheckpointBenchOptions = {}) {
  const full = options.full ?? process.env.BENCH_CHECKPOINTS_FULL === "1";
  const files = options.files ?? (full ? 100_000 : 20_000);
  const runs = options.runs ?? Number(process.env.BENCH_RUNS ?? 5);
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-checkpoints-"));
  const ws = join(root, "ws");
  let closeStore = () => {};
  try {
    const bytes = generate(ws, files);
    await settleDisk(ws);
    const plain = gitRunner({ GIT_DIR: join(ws, ".git"), GIT_WORK_TREE: ws });
    const tuned = gitRunner({ GIT_DIR: join(root, "tuned.git"), GIT_WORK_TREE: ws }, true);
    const cline = gitRunner({ GIT_DIR: join(root, "cline", ".git") });
    const init = gitRunner({});
    await init(["init", "-q", ws]);
    await init(["init", "-q", "--bare", join(root, "tuned.git")]);
    await init(["init", "-q", join(root, "cline")]);
    await cline(["config", "core.worktree", ws]);
    // Cline's commits would start `git gc --auto` in the background, which would slow down
    // whatever is measured next; the comparison is of the checkpoint work itself.
    await cline(["config", "gc.auto", "0"]);
    writeFileSync(join(root, "cline", ".git", "info", "exclude"), `${BUILT_IN_EXCLUDES.join("\n")}\n`);

    // Watched, as a task's store is: a step's checkpoint looks only at the paths that changed.
    const store = await openCheckpointStore({ home: join(root, "home"), workspace: ws, watch: true });
    if (isUnavailable(store)) throw new Error(store.message);
    closeStore = () => store.close();
    const save = async (kind: "baseline" | "step") => {
      const outcome = await store.save("bench", kind, kind);
      if (isUnavailable(outcome)) throw new Error(outcome.message);
      return outcome.checkpoint.id;
    };
    const clineCheckpoint = async () => {
      await clineNestedScan(ws);
      await cline(["add", ".", "--ignore-errors"], ws);
      await clineNestedScan(ws);
      await cline(["commit", "-q", "--allow-empty", "--no-verify", "-m", "checkpoint"], ws);
      return (await cline(["rev-parse", "HEAD"], ws)).trim();
    };
    const floorCheckpoint = async (git = plain) => {
      await git(["add", "-A"], ws);
      return (await git(["write-tree"], ws)).trim();
    };

    const first = {
      ours: await time(() => save("baseline")),
      cline: await time(clineCheckpoint),
      floor: await time(() => floorCheckpoint()),
      floorWithOurEnv: await time(() => floorCheckpoint(tuned)),
    };
    let oursPrev = (await store.list()).at(-1)!.id;
    let clinePrev = (await cline(["rev-parse", "HEAD"], ws)).trim();
    let floorPrev = await floorCheckpoint();
    const step = {
      ours: [] as number[],
      cline: [] as number[],
      floor: [] as number[],
      unchanged: [] as number[],
    };
    const restore = { ours: [] as number[], cline: [] as number[], floor: [] as number[] };
    for (let run = 1; run <= runs; run++) {
      const change = () => changeFiles(ws, files, run);
      change();
      step.ours.push(await time(() => save("step")));
      step.unchanged.push(await time(() => save("step")));
      step.cline.push(await time(clineCheckpoint));
      step.floor.push(await time(() => floorCheckpoint()));
      restore.ours.push(await time(() => store.restore(oursPrev)));
      change();
      restore.cline.push(await time(() => cline(["reset", "-q", "--hard", clinePrev], ws)));
      change();
      await floorCheckpoint();
      restore.floor.push(await time(() => plain(["read-tree", "--reset", "-u", floorPrev], ws)));
      oursPrev = (await store.list()).at(-1)!.id;
      clinePrev = (await cline(["rev-parse", "HEAD"], ws)).trim();
      floorPrev = (await plain(["write-tree"], ws)).trim();
    }
    const med = (values: number[]) => round(median(values), 1);
    const result = {
      files,
      bytes,
      runs,
      fullSize: files >= 100_000,
      firstMs: {
        ours: round(first.ours),
        cline: round(first.cline),
        floor: round(first.floor),
        floorWithOurEnv: round(first.floorWithOurEnv),
      },
      stepMs: {
        ours: med(step.ours),
        cline: med(step.cline),
        floor: med(step.floor),
        oursUnchanged: med(step.unchanged),
      },
      restoreMs: { ours: med(restore.ours), cline: med(restore.cline), floor: med(restore.floor) },
      // Apparent sizes of the two stores, measured alike (before any gc).
      storeBytes: { ours: duBytes(store.storeDir), cline: duBytes(join(root, "cline", ".git")) },
      // How our snapshots were taken: the first scans everything, later ones only the changed paths.
      watch: store.watching(),
    };
    const ratio = (a: number, b: number) => round(a / b);
    return {
      ...result,
      ratios: {
        firstOverFloor: ratio(result.firstMs.ours, result.firstMs.floor),
        firstOverFloorWithOurEnv: ratio(result.firstMs.ours, result.firstMs.floorWithOurEnv),
        firstOverCline: ratio(result.firstMs.ours, result.firstMs.cline),
        stepOverFloor: ratio(result.stepMs.ours, result.stepMs.floor),
        stepOverCline: ratio(result.stepMs.ours, result.stepMs.cline),
        restoreOverFloor: ratio(result.restoreMs.ours, result.restoreMs.floor),
        restoreOverCline: ratio(result.restoreMs.ours, result.restoreMs.cline),
      },
      targets,
      met: {
        first: result.firstMs.ours <= targets.firstMs,
        step: result.stepMs.ours <= targets.stepMs,
        restore: result.restoreMs.ours <= targets.restoreMs,
      },
    };
  } finally {
    closeStore();
    rmSync(root, { recursive: true, force: true });
  }
}

/** `files` source files of ~10 KB in 50 packages, and a `.gitignore`d node_modules. */
function generate(ws: string, files: number): number {
  const line = "export const value = compute(alpha, beta, gamma); // generated source line\n";
  const body = line.repeat(Math.ceil(10_240 / line.length)).slice(0, 10_240);
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const dir = join(ws, `pkg${i % 50}`, `mod${Math.floor(i / 50) % 40}`);
    if (i < 2_000) mkdirSync(dir, { recursive: true });
    const text = `// file ${i}\n${body}`;
    writeFileSync(join(dir, `file${i}.ts`), text);
    bytes += text.length;
  }
  mkdirSync(join(ws, "node_modules", "dep"), { recursive: true });
  for (let i = 0; i < 500; i++) writeFileSync(join(ws, "node_modules", "dep", `m${i}.js`), body);
  writeFileSync(join(ws, ".gitignore"), "node_modules/\n");
  return bytes;
}

/**
 * Flushes the generated files to disk and reads them once, so the first method measured does not
 * pay for the write-back of the generation or for a cold page cache.
 */
async function settleDisk(ws: string): Promise<void> {
  await new Promise((resolve, reject) =>
    spawn("sync", { stdio: "ignore" }).on("close", resolve).on("error", reject),
  );
  for (const entry of readdirSync(ws, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) readFileSync(join(entry.parentPath, entry.name));
  }
}

/** Rewrites the same 10 files with content unique to the run. */
function changeFiles(ws: string, files: number, run: number): void {
  for (let k = 0; k < CHANGED; k++) {
    const i = Math.floor((k * files) / CHANGED);
    const path = join(ws, `pkg${i % 50}`, `mod${Math.floor(i / 50) % 40}`, `file${i}.ts`);
    writeFileSync(path, `// file ${i}, run ${run}\nexport const changed = ${run};\n`);
  }
}

/** Cline looks for nested `.git` folders (to rename them) by walking every folder but node_modules. */
async function clineNestedScan(ws: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, top: boolean): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    const subdirs = entries.filter((e) => e.isDirectory() && e.name !== "node_modules");
    for (const entry of subdirs) {
      if (entry.name === ".git") {
        if (!top) found.push(join(dir, entry.name));
      } else await walk(join(dir, entry.name), false);
    }
  };
  await walk(ws, true);
  for (const path of found) renameSync(path, `${path}_disabled`);
  for (const path of found) renameSync(`${path}_disabled`, path);
  return found;
}

/** Runs git with a clean configuration; `ourEnv` adds the allocator setting the engine uses. */
function gitRunner(vars: Record<string, string>, ourEnv = false) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "bench",
    GIT_AUTHOR_EMAIL: "bench@example.invalid",
    GIT_COMMITTER_NAME: "bench",
    GIT_COMMITTER_EMAIL: "bench@example.invalid",
    ...vars,
  };
  if (ourEnv) env.MALLOC_TRIM_THRESHOLD_ = String(256 * 1024 * 1024);
  return (args: string[], cwd = tmpdir()) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.stderr.on("data", (chunk) => (err += chunk));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args[0]}: ${err}`))));
    });
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = now();
  await work();
  return now() - start;
}

function duBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

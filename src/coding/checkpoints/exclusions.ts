import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * What checkpoints never track, beyond the workspace's `.gitignore` files: dependency and build
 * folders, caches, media, archives, binaries, databases, logs and environment files (which hold
 * secrets). Patterns use gitignore syntax.
 */
export const BUILT_IN_EXCLUDES = [
  // dependencies and virtual environments
  "node_modules/",
  "bower_components/",
  "jspm_packages/",
  ".pnpm-store/",
  ".yarn/cache/",
  "vendor/",
  ".venv/",
  "venv/",
  "__pycache__/",
  ".tox/",
  ".nox/",
  // build output and caches
  "dist/",
  "build/",
  "out/",
  "target/",
  "obj/",
  "coverage/",
  ".next/",
  ".nuxt/",
  ".svelte-kit/",
  ".turbo/",
  ".parcel-cache/",
  ".cache/",
  ".gradle/",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  ".sass-cache/",
  ".terraform/",
  "*.tsbuildinfo",
  // compiled and binary files
  ...["o", "obj", "a", "lib", "so", "dylib", "dll", "exe", "class", "pyc", "pyo", "wasm"].map(
    (e) => `*.${e}`,
  ),
  // media (SVG is text and stays)
  ...["png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "tif", "tiff", "psd", "heic", "avif"].map(
    (e) => `*.${e}`,
  ),
  ...["mp3", "mp4", "m4a", "mov", "avi", "mkv", "webm", "wav", "flac", "ogg", "pdf"].map((e) => `*.${e}`),
  ...["ttf", "otf", "woff", "woff2", "eot"].map((e) => `*.${e}`),
  // archives and disk images
  ...["zip", "tar", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "iso", "dmg", "jar", "war", "whl"].map(
    (e) => `*.${e}`,
  ),
  // data
  ...["sqlite", "sqlite3", "db", "parquet", "arrow", "feather", "h5", "hdf5", "npy", "npz", "pkl"].map(
    (e) => `*.${e}`,
  ),
  // logs, temporary files, editor and OS litter
  ...["log", "tmp", "swp", "swo"].map((e) => `*.${e}`),
  ".DS_Store",
  "Thumbs.db",
  // secrets
  ".env",
  ".env.*",
  "!.env.example",
];

/**
 * Attributes for every path, overriding the workspace's `.gitattributes` (the shadow repository's
 * `info/attributes` comes first): files are stored byte for byte, with no line-ending conversion,
 * no filters (LFS or others, whose drivers are not configured here) and no encoding changes.
 */
const ATTRIBUTES = "* -text -filter -ident -working-tree-encoding\n";

/** Paths the engine found it must leave out: nested repositories and files over the size limit. */
export interface DiscoveredExcludes {
  nestedRepos: string[];
  largeFiles: string[];
}

/** A gitignore pattern matching exactly one path from the workspace root. */
export function exactPattern(path: string, directory = false): string {
  const escaped = path.replace(/[\\*?[\]!# ]/g, (char) => `\\${char}`);
  return `/${escaped}${directory ? "/" : ""}`;
}

/** Patterns of Git LFS files from the workspace's top `.gitattributes` (`<pattern> filter=lfs ...`). */
export async function lfsPatterns(workspace: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(join(workspace, ".gitattributes"), "utf8");
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().split(/\s+/))
    .filter((tokens) => tokens.length > 1 && !tokens[0]!.startsWith("#") && tokens.includes("filter=lfs"))
    .map((tokens) => tokens[0]!);
}

export function excludeFileText(
  userExcludes: string[],
  lfs: string[],
  discovered: DiscoveredExcludes,
  homeInWorkspace: string | undefined,
): string {
  const sections: Array<[string, string[]]> = [
    ["built in", BUILT_IN_EXCLUDES],
    ["Git LFS files", lfs],
    ["the person's own", userExcludes],
    [
      "nested repositories (their own git tracks them)",
      discovered.nestedRepos.map((p) => exactPattern(p, true)),
    ],
    ["files over the size limit", discovered.largeFiles.map((p) => exactPattern(p))],
    ["Bowline's home", homeInWorkspace === undefined ? [] : [exactPattern(homeInWorkspace, true)]],
  ];
  return sections
    .filter(([, patterns]) => patterns.length > 0)
    .map(([title, patterns]) => `# ${title}\n${patterns.join("\n")}\n`)
    .join("");
}

/**
 * Writes `info/exclude` and `info/attributes` of the shadow repository, only when their content
 * changes: git's untracked cache is keyed on the exclude file, and a rewrite costs a full rescan.
 * Says whether the exclusions changed.
 */
export async function writeExcludes(gitDir: string, excludeText: string): Promise<boolean> {
  const changed = await writeIfChanged(join(gitDir, "info", "exclude"), excludeText);
  await writeIfChanged(join(gitDir, "info", "attributes"), ATTRIBUTES);
  return changed;
}

/** Replaced whole (temporary file, then rename): the watcher's ignore checks may read it meanwhile. */
async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const current = await readFile(path, "utf8").catch(() => undefined);
  if (current === text) return false;
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
  return true;
}

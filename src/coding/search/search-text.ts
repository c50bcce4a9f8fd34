import fs from "node:fs/promises";
import path from "node:path";
import { compileGitignore } from "../ignore/gitignore-matcher.js";
import { commonRipgrepArgs, isRipgrepUnavailable, runRipgrep } from "./ripgrep.js";
import { compileRustRegex } from "./rust-regex.js";
import { walkFiles } from "./walk-files.js";

/** A matching line, or a context line next to one. */
export interface SearchLine {
  /** Path relative to `cwd`, with `/` separators. */
  path: string;
  /** 1-based. */
  line: number;
  text: string;
  match: boolean;
}

export interface TextSearchRequest {
  /** Directory paths are reported relative to (the workspace root); ignore files are read from here down. */
  cwd: string;
  /** File or directory to search, relative to `cwd` ("." for all). */
  target: string;
  /** Rust regex syntax (ripgrep's); translated for the built-in engine. */
  regex: string;
  /** ripgrep-style glob limiting the files searched (matched below `target`). */
  glob?: string;
  signal?: AbortSignal;
  /** rg executable to use instead of `@vscode/ripgrep`'s. */
  rgPath?: string;
}

export interface TextSearchRun {
  /** Which engine ran: ripgrep, or the built-in one when rg is missing or cannot start. */
  engine: "ripgrep" | "node";
  /** Set when the search could not run at all (e.g. an invalid regex). */
  error?: string;
  /** Set when some files could not be searched. */
  warning?: string;
  /** True when `onLine` asked to stop. */
  stopped: boolean;
}

/**
 * Streams matches with one line of context, file by file, to `onLine` (return false to stop).
 * Uses ripgrep; falls back to a slower built-in walker and JS RegExp when rg is unavailable.
 * Rejects only on unexpected failures.
 */
export async function searchText(
  request: TextSearchRequest,
  onLine: (line: SearchLine) => boolean,
): Promise<TextSearchRun> {
  const args = ["--json", "--context", "1", "--regexp", request.regex, ...commonRipgrepArgs()];
  if (request.glob) args.push("--glob", request.glob);
  args.push("--", request.target);
  let delivered = false;
  try {
    const run = await runRipgrep(
      args,
      request.cwd,
      (json) => {
        const event = parseEvent(json);
        if (event === undefined) return true;
        delivered = true;
        return onLine(event);
      },
      request.signal,
      request.rgPath,
    );
    if (run.exitCode !== 2) return { engine: "ripgrep", stopped: run.stopped };
    const message = run.stderr || "ripgrep exited with an error.";
    return delivered
      ? { engine: "ripgrep", warning: message.split("\n")[0], stopped: run.stopped }
      : { engine: "ripgrep", error: message, stopped: false };
  } catch (error) {
    if (!isRipgrepUnavailable(error)) throw error;
  }
  return searchWithNode(request, onLine);
}

type RipgrepText = { text?: string; bytes?: string };

/** A match or context line from one line of `rg --json` output; undefined for other events. */
function parseEvent(json: string): SearchLine | undefined {
  const event = JSON.parse(json) as {
    type: string;
    data: { path?: RipgrepText; lines?: RipgrepText; line_number?: number };
  };
  if (event.type !== "match" && event.type !== "context") return undefined;
  const { path: file, lines, line_number } = event.data;
  if (file === undefined || lines === undefined || line_number === undefined) return undefined;
  return {
    path: decode(file).replace(/^\.\//, ""),
    line: line_number,
    text: decode(lines).replace(/\r?\n$/, ""),
    match: event.type === "match",
  };
}

function decode(value: RipgrepText): string {
  return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

/** Files larger than this are not searched by the built-in engine. */
const MAX_NODE_SEARCH_BYTES = 50 * 1024 * 1024;
const READ_BATCH = 32;

/** The built-in engine: same lines, same order per file, files in path order. */
async function searchWithNode(
  request: TextSearchRequest,
  onLine: (line: SearchLine) => boolean,
): Promise<TextSearchRun> {
  let regex: RegExp;
  try {
    regex = compileRustRegex(request.regex);
  } catch (error) {
    return { engine: "node", error: (error as Error).message, stopped: false };
  }
  const start = path.resolve(request.cwd, request.target);
  const stats = await fs.stat(start);
  const glob = request.glob ? compileGitignore([request.glob], { braces: true }) : undefined;
  const wanted = (abs: string) => {
    if (glob === undefined) return true;
    const rel = path.relative(start, abs).split(path.sep).join("/") || path.basename(abs);
    return glob.test(rel, false) === true;
  };
  const files = stats.isDirectory()
    ? walkFiles({ root: request.cwd, start, signal: request.signal })
    : single(start);
  let batch: string[] = [];
  const flush = async (): Promise<boolean> => {
    const contents = await Promise.all(batch.map(readSearchable));
    for (let i = 0; i < batch.length; i++) {
      const text = contents[i];
      if (text === undefined) continue;
      const rel = path.relative(request.cwd, batch[i]!).split(path.sep).join("/");
      if (!emitMatches(rel, text, regex, onLine)) return false;
    }
    batch = [];
    return true;
  };
  for await (const file of files) {
    if (!wanted(file)) continue;
    batch.push(file);
    if (batch.length >= READ_BATCH && !(await flush())) return { engine: "node", stopped: true };
  }
  const finished = await flush();
  return { engine: "node", stopped: !finished };
}

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}

/** The file's text, or undefined for binary (NUL byte), huge or unreadable files. */
async function readSearchable(file: string): Promise<string | undefined> {
  try {
    const stats = await fs.stat(file);
    if (stats.size > MAX_NODE_SEARCH_BYTES) return undefined;
    const buffer = await fs.readFile(file);
    return buffer.includes(0) ? undefined : buffer.toString("utf8");
  } catch {
    return undefined;
  }
}

/** Emits each match with one line of context on either side, as `rg --context 1` does. */
function emitMatches(
  rel: string,
  text: string,
  regex: RegExp,
  onLine: (line: SearchLine) => boolean,
): boolean {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let emittedUpTo = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (!regex.test(line)) continue;
    for (let j = Math.max(i - 1, emittedUpTo + 1); j <= i; j++) {
      const shown = j === i ? line : lines[j]!.replace(/\r$/, "");
      if (!onLine({ path: rel, line: j + 1, text: shown, match: j === i })) return false;
    }
    emittedUpTo = i;
    const next = i + 1;
    if (next < lines.length && !regex.test(lines[next]!.replace(/\r$/, ""))) {
      if (!onLine({ path: rel, line: next + 1, text: lines[next]!.replace(/\r$/, ""), match: false }))
        return false;
      emittedUpTo = next;
      i = next; // A context line cannot match.
    }
  }
  return true;
}

import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { Socket } from "node:net";
import { join } from "node:path";
import { describeFailure, type ShadowGit, spawnGit } from "./git.js";
import { isTree, type TreeEntry } from "./objects.js";
import { CheckpointGitError } from "./types.js";

/**
 * Long-lived git processes of a watched store, for the incremental snapshot: each batch mode used
 * here (`cat-file --batch`, `hash-object --stdin-paths`, `mktree --batch`, `update-ref --stdin`,
 * `check-ignore --stdin`) flushes every answer, so one process serves a whole task. Starting a
 * git process costs more than a checkpoint of a few files (tens of milliseconds on a busy
 * machine); these start once, when first needed, and again after one exits.
 */
export interface GitServices {
  /** Each object's type and content, or undefined when the store does not have it. */
  readObjects(oids: string[]): Promise<Array<GitObject | undefined>>;
  /** Writes the files (absolute paths, no newline in them) as blobs; their ids. */
  hashFiles(paths: string[]): Promise<string[]>;
  /** Writes a blob with this content; its id. */
  writeBlob(content: Buffer): Promise<string>;
  /**
   * Writes trees, children before parents. Each tree's id was computed by the caller (its parent
   * refers to it); git's must agree, or nothing built on them is used.
   */
  writeTrees(trees: Array<{ oid: string; entries: Map<string, TreeEntry> }>): Promise<void>;
  /** Writes a commit object with this content (`tree ...` headers, blank line, message); its id. */
  writeCommit(content: string): Promise<string>;
  /** Applies `update-ref --stdin` commands as one transaction. */
  updateRefs(commands: string): Promise<void>;
  /** The paths the ignore rules leave out (see `ignoredPaths`). */
  ignored(paths: string[]): Promise<Set<string>>;
  /** The ignore rules changed: the process that read them is replaced at its next use. */
  forgetIgnoreRules(): void;
  close(): void;
}

export interface GitObject {
  type: string;
  content: Buffer;
}

export function createGitServices(git: ShadowGit): GitServices {
  const objects = openChannel(git, ["cat-file", "--batch"]);
  const blobs = openChannel(git, ["hash-object", "-w", "--no-filters", "--stdin-paths"]);
  // With `--missing`: a long-lived mktree does not see objects written after it started.
  const trees = openChannel(git, ["mktree", "-z", "--missing", "--batch"]);
  const commits = openChannel(git, ["hash-object", "-w", "-t", "commit", "--stdin-paths"]);
  const refs = openChannel(git, ["update-ref", "--stdin"]);
  const ignores = openChannel(git, ["check-ignore", "--no-index", "--stdin", "-z", "-v", "-n"]);
  /** A file of the store handed to `hash-object` by path (requests run one at a time per channel). */
  const scratch = (name: string) => join(git.storeDir, `${name}.${process.pid}.tmp`);

  const lines = async (channel: Channel, input: string, count: number) => {
    const output = await channel.ask(input, (buffer) => afterRecords(buffer, 0x0a, count));
    return output.toString("utf8").split("\n").slice(0, count);
  };

  return {
    async readObjects(oids) {
      if (oids.length === 0) return [];
      const output = await objects.ask(`${oids.join("\n")}\n`, (buffer) => batchLength(buffer, oids.length));
      return parseBatch(output, oids.length);
    },
    hashFiles: (paths) =>
      paths.length === 0 ? Promise.resolve([]) : lines(blobs, `${paths.join("\n")}\n`, paths.length),
    async writeBlob(content) {
      const path = scratch("blob");
      await writeFile(path, content);
      return (await lines(blobs, `${path}\n`, 1))[0]!;
    },
    async writeTrees(list) {
      if (list.length === 0) return;
      const input = list
        .map(({ entries }) =>
          [...entries]
            .map(([name, entry]) => `${entry.mode} ${typeOf(entry)} ${entry.oid}\t${name}\0`)
            .join(""),
        )
        .join("\0");
      const written = await lines(trees, `${input}\0`, list.length);
      if (written.join(" ") !== list.map((tree) => tree.oid).join(" ")) {
        throw new CheckpointGitError("git mktree wrote other trees than expected in the checkpoint store.");
      }
    },
    async writeCommit(content) {
      const path = scratch("commit");
      await writeFile(path, content);
      return (await lines(commits, `${path}\n`, 1))[0]!;
    },
    async updateRefs(commands) {
      const done = Buffer.from("commit: ok\n");
      await refs.ask(`start\n${commands}commit\n`, (buffer) => {
        const at = buffer.indexOf(done);
        return at < 0 ? undefined : at + done.length;
      });
    },
    async ignored(paths) {
      const result = new Set<string>();
      if (paths.length === 0) return result;
      const output = await ignores.ask(`${paths.join("\0")}\0`, (buffer) =>
        afterRecords(buffer, 0, 4 * paths.length),
      );
      // Records of four fields: the rule's source, line and pattern (empty when none matched), the path.
      const fields = output.toString("utf8").split("\0");
      for (let i = 0; i + 3 < fields.length; i += 4) {
        if (fields[i] !== "" && !fields[i + 2]!.startsWith("!")) result.add(fields[i + 3]!);
      }
      return result;
    },
    forgetIgnoreRules: () => ignores.close(),
    close() {
      for (const channel of [objects, blobs, trees, commits, refs, ignores]) channel.close();
      for (const name of ["blob", "commit"]) rmSync(scratch(name), { force: true });
    },
  };
}

const typeOf = (entry: TreeEntry) => (isTree(entry) ? "tree" : entry.mode === "160000" ? "commit" : "blob");

/** Where `count` records ending in `separator` end in `buffer`, if they are all there. */
function afterRecords(buffer: Buffer, separator: number, count: number): number | undefined {
  let at = 0;
  for (let i = 0; i < count; i++) {
    const end = buffer.indexOf(separator, at);
    if (end < 0) return undefined;
    at = end + 1;
  }
  return at;
}

/** Where `count` answers of `cat-file --batch` end: `<id> <type> <size>\n<content>\n` or `<id> missing\n`. */
function batchLength(buffer: Buffer, count: number): number | undefined {
  let at = 0;
  for (let i = 0; i < count; i++) {
    const newline = buffer.indexOf(0x0a, at);
    if (newline < 0) return undefined;
    const header = buffer.toString("utf8", at, newline).split(" ");
    at = header[1] === "missing" ? newline + 1 : newline + 1 + Number(header[2]) + 1;
    if (at > buffer.length) return undefined;
  }
  return at;
}

function parseBatch(output: Buffer, count: number): Array<GitObject | undefined> {
  const objects: Array<GitObject | undefined> = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const newline = output.indexOf(0x0a, at);
    const header = output.toString("utf8", at, newline).split(" ");
    if (header[1] === "missing") {
      objects.push(undefined);
      at = newline + 1;
      continue;
    }
    const size = Number(header[2]);
    objects.push({ type: header[1] ?? "", content: output.subarray(newline + 1, newline + 1 + size) });
    at = newline + 1 + size + 1;
  }
  return objects;
}

/** How long a request may wait for its answer (hashing big files included). */
const ANSWER_TIMEOUT_MS = 120_000;

/** One long-lived git process; requests run one at a time. */
interface Channel {
  /** Writes `input`; resolves with git's answer once `measure` finds it whole (its length). */
  ask(input: string, measure: (output: Buffer) => number | undefined): Promise<Buffer>;
  /** Ends the process (it is started again when next asked). */
  close(): void;
}

function openChannel(git: ShadowGit, args: string[]): Channel {
  let child: ChildProcessWithoutNullStreams | undefined;
  let output: Buffer = Buffer.alloc(0);
  let stderr = "";
  let waiting:
    | {
        to: ChildProcessWithoutNullStreams;
        measure: (output: Buffer) => number | undefined;
        resolve: (answer: Buffer) => void;
        reject: (error: Error) => void;
      }
    | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  /** An idle process must not keep Bowline running; one that is answering must. */
  const hold = (running: ChildProcessWithoutNullStreams, held: boolean) => {
    for (const stream of [running.stdin, running.stdout, running.stderr] as unknown as Socket[]) {
      if (held) stream.ref?.();
      else stream.unref?.();
    }
    if (held) running.ref();
    else running.unref();
  };
  const deliver = () => {
    if (!waiting) return;
    const length = waiting.measure(output);
    if (length === undefined) return;
    const answer = Buffer.from(output.subarray(0, length));
    output = output.subarray(length);
    const { resolve, to } = waiting;
    waiting = undefined;
    hold(to, false);
    resolve(answer);
  };
  const start = () => {
    const running = spawnGit(git, args);
    running.stdout.on("data", (chunk: Buffer) => {
      if (waiting?.to !== running) return;
      output = output.length === 0 ? chunk : Buffer.concat([output, chunk]);
      deliver();
    });
    running.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4_000);
    });
    running.stdin.on("error", () => {
      // git exited; its exit code says why.
    });
    const ended = (message: string) => {
      if (child === running) child = undefined;
      if (waiting?.to !== running) return;
      const { reject } = waiting;
      waiting = undefined;
      reject(new CheckpointGitError(message));
    };
    running.on("error", (error) => ended(`Could not run git: ${error.message}`));
    running.on("close", (code) => ended(describeFailure(args, { stdout: "", stderr, code: code ?? -1 })));
    return running;
  };

  return {
    ask(input, measure) {
      const run = () =>
        new Promise<Buffer>((resolve, reject) => {
          const running = child ?? start();
          child = running;
          output = Buffer.alloc(0);
          stderr = "";
          // A process that stops answering is ended: its exit rejects this request.
          const timer = setTimeout(() => running.kill("SIGKILL"), ANSWER_TIMEOUT_MS);
          const settle = () => clearTimeout(timer);
          waiting = {
            to: running,
            measure,
            resolve: (answer) => {
              settle();
              resolve(answer);
            },
            reject: (error) => {
              settle();
              reject(error);
            },
          };
          hold(running, true);
          running.stdin.write(input);
        });
      const answer = queue.then(run, run);
      queue = answer.catch(() => undefined);
      return answer;
    },
    close() {
      const running = child;
      child = undefined;
      if (!running) return;
      running.stdin.end();
      hold(running, false);
    },
  };
}

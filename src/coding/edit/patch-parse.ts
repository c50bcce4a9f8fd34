/**
 * Parsing V4A patches (the `apply_patch` format):
 *
 *     *** Begin Patch
 *     *** Add File: path        then lines starting with "+"
 *     *** Delete File: path
 *     *** Update File: path     optionally "*** Move to: new/path", then hunks:
 *     @@ optional anchor line   then " context", "-removed", "+added" lines,
 *     *** End of File           optionally, when the hunk ends at the end of the file
 *     *** End Patch
 */

export type PatchLineKind = "context" | "remove" | "add";

export interface PatchLine {
  kind: PatchLineKind;
  text: string;
}

export interface PatchHunk {
  /** 1-based hunk number within its file. */
  number: number;
  /** Text after `@@`: a line (e.g. `class Foo`) the hunk comes after. */
  anchor?: string;
  lines: PatchLine[];
  /** The hunk ends at the end of the file. */
  endOfFile: boolean;
}

export type PatchOp =
  | { type: "add"; path: string; lines: string[] }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo?: string; hunks: PatchHunk[] };

export type PatchParseResult = { ok: true; ops: PatchOp[] } | { ok: false; error: string };

export const PATCH_FORMAT = `*** Begin Patch
*** Update File: src/app.ts
@@ function main() {
   const a = 1;
-  const b = 2;
+  const b = 3;
   return a + b;
*** Add File: src/new.ts
+export const x = 1;
*** Delete File: src/old.ts
*** End Patch`;

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const OP_HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;
const MOVE_TO = /^\*\*\* Move to: (.+)$/;
const END_OF_FILE = "*** End of File";

export function parsePatch(input: string): PatchParseResult {
  const lines = input.replace(/\r\n/g, "\n").split("\n");
  const begin = lines.findIndex((line) => line.trim() === BEGIN);
  const end = lines.findLastIndex((line) => line.trim() === END);
  const fail = (problem: string): PatchParseResult => ({
    ok: false,
    error: `The patch is malformed: ${problem}\nA patch looks like this:\n${PATCH_FORMAT}`,
  });
  if (begin === -1) return fail(`it does not start with "${BEGIN}".`);
  if (end === -1 || end < begin) return fail(`it does not end with "${END}".`);
  const ops: PatchOp[] = [];
  let i = begin + 1;
  while (i < end) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const header = OP_HEADER.exec(line.trimEnd());
    if (header === null)
      return fail(
        `line ${i + 1} ("${line}") should start a file with "*** Add File:", "*** Update File:" or "*** Delete File:".`,
      );
    const [, kind, rawPath] = header;
    const path = rawPath!.trim();
    i++;
    if (kind === "Delete") {
      ops.push({ type: "delete", path });
      continue;
    }
    if (kind === "Add") {
      const added: string[] = [];
      while (i < end && !lines[i]!.startsWith("*** ")) {
        const body = lines[i]!;
        if (!body.startsWith("+")) {
          if (body === "" && isLastBeforeHeader(lines, i, end)) break;
          return fail(
            `in "*** Add File: ${path}", line ${i + 1} does not start with "+"; every line of a new file must.`,
          );
        }
        added.push(body.slice(1));
        i++;
      }
      ops.push({ type: "add", path, lines: added });
      continue;
    }
    const move = i < end ? MOVE_TO.exec(lines[i]!.trimEnd()) : null;
    if (move !== null) i++;
    const parsed = parseHunks(lines, i, end, path);
    if (typeof parsed === "string") return fail(parsed);
    i = parsed.next;
    if (parsed.hunks.length === 0 && move === null) return fail(`"*** Update File: ${path}" has no hunks.`);
    ops.push(
      move
        ? { type: "update", path, moveTo: move[1]!.trim(), hunks: parsed.hunks }
        : { type: "update", path, hunks: parsed.hunks },
    );
  }
  if (ops.length === 0) return fail("it changes no file.");
  return { ok: true, ops };
}

/** True when only blank lines remain before the next header or the end. */
function isLastBeforeHeader(lines: readonly string[], i: number, end: number): boolean {
  for (let k = i; k < end; k++) {
    if (lines[k]!.startsWith("*** ")) return true;
    if (lines[k]!.trim() !== "") return false;
  }
  return true;
}

function parseHunks(
  lines: readonly string[],
  start: number,
  end: number,
  path: string,
): { hunks: PatchHunk[]; next: number } | string {
  const hunks: PatchHunk[] = [];
  let current: PatchHunk | undefined;
  let i = start;
  /** Context lines that were empty in the patch: dropped when they trail a hunk. */
  const bare = new Set<PatchLine>();
  const open = (anchor?: string) => {
    current = { number: hunks.length + 1, lines: [], endOfFile: false };
    if (anchor) current.anchor = anchor;
    hunks.push(current);
    return current;
  };
  for (; i < end; i++) {
    const line = lines[i]!;
    if (line.trimEnd() === END_OF_FILE) {
      if (current === undefined) return `"*** End of File" in ${path} is not inside a hunk.`;
      current.endOfFile = true;
      current = undefined;
      continue;
    }
    if (OP_HEADER.test(line.trimEnd())) break;
    if (line.startsWith("@@")) {
      const anchor = line
        .slice(2)
        .replace(/@@\s*$/, "")
        .trim();
      open(anchor === "" ? undefined : anchor);
      continue;
    }
    const kind = line.startsWith("+")
      ? "add"
      : line.startsWith("-")
        ? "remove"
        : line.startsWith(" ") || line === ""
          ? "context"
          : undefined;
    if (kind === undefined)
      return `in "*** Update File: ${path}", line ${i + 1} ("${line}") must start with " ", "-", "+" or "@@".`;
    const hunk = current ?? open();
    const entry: PatchLine = { kind, text: line.slice(line === "" ? 0 : 1) };
    if (line === "") bare.add(entry);
    hunk.lines.push(entry);
  }
  for (const hunk of hunks) {
    while (hunk.lines.length > 0 && bare.has(hunk.lines.at(-1)!)) hunk.lines.pop();
    if (!hunk.lines.some((l) => l.kind !== "context"))
      return `hunk ${hunk.number} of ${path} changes nothing: it has no "-" or "+" lines.`;
  }
  return { hunks, next: i };
}

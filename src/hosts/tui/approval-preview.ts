import { readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { diffLines, splitLines, unifiedDiff } from "./diff.js";
import type { StyledLine } from "./store.js";

/** What a tool call awaiting approval will do, as the approval panel shows it. */
export type ApprovalPreview =
  | { kind: "diff"; lines: StyledLine[]; created: boolean }
  | { kind: "command"; command: string; parts: string[] }
  | { kind: "input"; lines: StyledLine[] };

/** Reads a workspace file for a preview; undefined when missing, outside the workspace or too big. */
export type PreviewReader = (path: string) => string | undefined;

const MAX_PREVIEW_BYTES = 1_000_000;

export function workspaceReader(root: string): PreviewReader {
  return (path) => {
    const abs = resolve(root, path);
    const rel = relative(root, abs);
    if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
    try {
      if (statSync(abs).size > MAX_PREVIEW_BYTES) return undefined;
      return readFileSync(abs, "utf8");
    } catch {
      return undefined; // a new file: the preview shows it whole
    }
  };
}

export function previewApproval(tool: string, input: unknown, read: PreviewReader): ApprovalPreview {
  const fields = (input ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : undefined);
  const path = text("path");
  if (tool === "write_to_file" && path !== undefined && text("content") !== undefined) {
    const before = read(path);
    return {
      kind: "diff",
      lines: unifiedDiff(before ?? "", text("content")!, path),
      created: before === undefined,
    };
  }
  if (tool === "replace_in_file" && path !== undefined && text("diff") !== undefined)
    return { kind: "diff", lines: searchReplaceDiff(text("diff")!, path, read(path)), created: false };
  if (tool === "apply_patch" && text("input") !== undefined)
    return { kind: "diff", lines: patchLines(text("input")!), created: false };
  const command = text("command");
  if (command !== undefined) return { kind: "command", command, parts: splitCommand(command) };
  const json = JSON.stringify(input, null, 2) ?? "";
  return { kind: "input", lines: json.split("\n").map((line) => ({ kind: "plain", text: line })) };
}

const SEARCH = /^(?:-{3,}|<{3,}) ?SEARCH>?$/;
const SEPARATOR = /^={3,}$/;
const REPLACE = /^(?:\+{3,}|>{3,}) ?REPLACE>?$/;

/** SEARCH/REPLACE blocks as diff hunks, placed at their line in the current file when found. */
export function searchReplaceDiff(diff: string, path: string, current: string | undefined): StyledLine[] {
  const out: StyledLine[] = [
    { kind: "hunk", text: `--- a/${path}` },
    { kind: "hunk", text: `+++ b/${path}` },
  ];
  const fileLines = splitLines(current ?? "");
  let section: "none" | "search" | "replace" = "none";
  let search: string[] = [];
  let replace: string[] = [];
  for (const line of diff.replace(/\r\n/g, "\n").split("\n")) {
    if (SEARCH.test(line)) {
      section = "search";
      search = [];
      replace = [];
    } else if (SEPARATOR.test(line) && section === "search") section = "replace";
    else if (REPLACE.test(line) && section === "replace") {
      section = "none";
      const at = findLines(fileLines, search);
      out.push({
        kind: "hunk",
        text: at >= 0 ? `@@ line ${at + 1} @@` : "@@ (not found in the file as it is now) @@",
      });
      for (const op of diffLines(search, replace))
        out.push({
          kind: op.type === "+" ? "add" : op.type === "-" ? "remove" : "plain",
          text: `${op.type}${op.text}`,
        });
    } else if (section === "search") search.push(line);
    else if (section === "replace") replace.push(line);
  }
  return out;
}

function findLines(haystack: string[], needle: string[]): number {
  if (needle.length === 0) return -1;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j]!.trim() !== needle[j]!.trim()) continue outer;
    return i;
  }
  return -1;
}

/** A V4A patch (`*** Begin Patch`): its own `+`/`-` lines, file headers as hunk lines. */
function patchLines(patch: string): StyledLine[] {
  return patch.split("\n").map((text): StyledLine => {
    if (text.startsWith("***") || text.startsWith("@@")) return { kind: "hunk", text };
    if (text.startsWith("+")) return { kind: "add", text };
    if (text.startsWith("-")) return { kind: "remove", text };
    return { kind: "plain", text };
  });
}

/**
 * The simple commands of a shell line, split at `&&`, `||`, `;`, `|` and newlines outside
 * quotes. For display only: the permission rules will bring the parse the core decides with.
 */
export function splitCommand(command: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"') {
        current += char + (command[i + 1] ?? "");
        i++;
        continue;
      }
      current += char;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    const two = command.slice(i, i + 2);
    if (two === "&&" || two === "||" || char === ";" || char === "|" || char === "\n") {
      if (current.trim()) parts.push(current.trim());
      current = "";
      if (two === "&&" || two === "||") i++;
      continue;
    }
    current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

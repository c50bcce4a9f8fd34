import type { ImageAttachment } from "../../protocol/index.js";
import type { AttachedImage } from "./images.js";

/**
 * The input box's text as plain data: the text, the cursor (an index into it), and large pastes
 * and images kept aside behind placeholders. Every edit returns a new draft.
 */
export interface Draft {
  readonly text: string;
  readonly cursor: number;
  /** Pasted texts too large to show, by number: `[Pasted text #1 +120 lines]` stands for pastes[0]. */
  readonly pastes: readonly string[];
  /** Attached images, by number: `[Image #1: shot.png]` stands for images[0]. */
  readonly images: readonly AttachedImage[];
}

export const EMPTY_DRAFT: Draft = { text: "", cursor: 0, pastes: [], images: [] };

/** A paste longer than this (lines or characters) is collapsed to a placeholder. */
const PASTE_MAX_LINES = 8;
const PASTE_MAX_CHARS = 800;
const PLACEHOLDER = /\[Pasted text #(\d+) \+\d+ lines\]/g;
const IMAGE_PLACEHOLDER = /\[Image #(\d+): [^\]\n]*\]/g;
const PLACEHOLDER_AT_END = /\[(?:Pasted text #\d+ \+\d+ lines|Image #\d+: [^\]\n]*)\]$/;

export const draftOf = (text: string): Draft => ({ text, cursor: text.length, pastes: [], images: [] });

export function insert(draft: Draft, input: string): Draft {
  const text = input.replace(/\r\n?/g, "\n");
  return {
    ...draft,
    text: draft.text.slice(0, draft.cursor) + text + draft.text.slice(draft.cursor),
    cursor: draft.cursor + text.length,
  };
}

/** Inserts pasted text, collapsed to a placeholder when it is large. */
export function paste(draft: Draft, input: string): Draft {
  const text = input.replace(/\r\n?/g, "\n");
  const lines = text.split("\n").length;
  if (lines <= PASTE_MAX_LINES && text.length <= PASTE_MAX_CHARS) return insert(draft, text);
  const number = draft.pastes.length + 1;
  return { ...insert(draft, `[Pasted text #${number} +${lines} lines]`), pastes: [...draft.pastes, text] };
}

/** Attaches an image at the cursor, shown as `[Image #n: label]`. */
export function attachImage(draft: Draft, attached: AttachedImage): Draft {
  const number = draft.images.length + 1;
  return { ...insert(draft, `[Image #${number}: ${attached.label}]`), images: [...draft.images, attached] };
}

/** The images whose placeholders are still in the text (a deleted placeholder drops its image). */
export function imagesIn(draft: Draft): ImageAttachment[] {
  return [...draft.text.matchAll(IMAGE_PLACEHOLDER)].flatMap(([, n]) => {
    const attached = draft.images[Number(n) - 1];
    return attached ? [attached.image] : [];
  });
}

/** The text to send: placeholders replaced by what was pasted. */
export function expand(draft: Draft): string {
  return draft.text.replace(PLACEHOLDER, (whole, n: string) => draft.pastes[Number(n) - 1] ?? whole);
}

export function backspace(draft: Draft): Draft {
  if (draft.cursor === 0) return draft;
  const before = draft.text.slice(0, draft.cursor);
  // A placeholder goes as a whole, so it never half-survives.
  const placeholder = PLACEHOLDER_AT_END.exec(before);
  const width = placeholder ? placeholder[0].length : charWidthBefore(before);
  return {
    ...draft,
    text: before.slice(0, -width) + draft.text.slice(draft.cursor),
    cursor: draft.cursor - width,
  };
}

export function deleteForward(draft: Draft): Draft {
  if (draft.cursor >= draft.text.length) return draft;
  const width = isHighSurrogate(draft.text.charCodeAt(draft.cursor)) ? 2 : 1;
  return { ...draft, text: draft.text.slice(0, draft.cursor) + draft.text.slice(draft.cursor + width) };
}

export function left(draft: Draft): Draft {
  return { ...draft, cursor: Math.max(0, draft.cursor - charWidthBefore(draft.text.slice(0, draft.cursor))) };
}

export function right(draft: Draft): Draft {
  if (draft.cursor >= draft.text.length) return draft;
  const width = isHighSurrogate(draft.text.charCodeAt(draft.cursor)) ? 2 : 1;
  return { ...draft, cursor: draft.cursor + width };
}

/** Moves to the line above at the same column; undefined on the first line (history takes over). */
export function up(draft: Draft): Draft | undefined {
  const { row, col, lines } = position(draft);
  if (row === 0) return undefined;
  return { ...draft, cursor: offsetOf(lines, row - 1, Math.min(col, lines[row - 1]!.length)) };
}

/** Moves to the line below; undefined on the last line. */
export function down(draft: Draft): Draft | undefined {
  const { row, col, lines } = position(draft);
  if (row >= lines.length - 1) return undefined;
  return { ...draft, cursor: offsetOf(lines, row + 1, Math.min(col, lines[row + 1]!.length)) };
}

export function lineStart(draft: Draft): Draft {
  return { ...draft, cursor: draft.text.lastIndexOf("\n", draft.cursor - 1) + 1 };
}

export function lineEnd(draft: Draft): Draft {
  const end = draft.text.indexOf("\n", draft.cursor);
  return { ...draft, cursor: end < 0 ? draft.text.length : end };
}

/** Ctrl-U: deletes from the start of the line to the cursor. */
export function killBefore(draft: Draft): Draft {
  const start = lineStart(draft).cursor;
  return { ...draft, text: draft.text.slice(0, start) + draft.text.slice(draft.cursor), cursor: start };
}

/** Ctrl-K: deletes from the cursor to the end of the line. */
export function killAfter(draft: Draft): Draft {
  const end = lineEnd(draft).cursor;
  return { ...draft, text: draft.text.slice(0, draft.cursor) + draft.text.slice(end) };
}

/** Ctrl-W: deletes the word before the cursor (and the spaces after it). */
export function deleteWord(draft: Draft): Draft {
  const before = draft.text.slice(0, draft.cursor);
  const start = before.search(/\S*\s*$/);
  return { ...draft, text: before.slice(0, start) + draft.text.slice(draft.cursor), cursor: start };
}

/** The word the cursor ends (for `@path` and `/command` completion). */
export function wordAtCursor(draft: Draft): { start: number; word: string } {
  const before = draft.text.slice(0, draft.cursor);
  const start = before.search(/\S*$/);
  return { start, word: before.slice(start) };
}

export function replaceWord(draft: Draft, start: number, replacement: string): Draft {
  return {
    ...draft,
    text: draft.text.slice(0, start) + replacement + draft.text.slice(draft.cursor),
    cursor: start + replacement.length,
  };
}

/** The cursor's row and column, and the text's lines. */
export function position(draft: Draft): { row: number; col: number; lines: string[] } {
  const lines = draft.text.split("\n");
  const before = draft.text.slice(0, draft.cursor).split("\n");
  return { row: before.length - 1, col: before.at(-1)!.length, lines };
}

function offsetOf(lines: string[], row: number, col: number): number {
  let offset = 0;
  for (let i = 0; i < row; i++) offset += lines[i]!.length + 1;
  return offset + col;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function charWidthBefore(before: string): number {
  if (before.length === 0) return 0;
  return before.length >= 2 && isLowSurrogate(before.charCodeAt(before.length - 1)) ? 2 : 1;
}

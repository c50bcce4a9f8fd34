import type { KeptOutput } from "./output-buffer.js";

// ANSI escape sequences: CSI (colours, cursor moves), OSC (titles, links) and two-byte escapes.
const ANSI = new RegExp(
  [
    "\\u001b\\[[0-?]*[ -/]*[@-~]",
    "\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)",
    "\\u001b[@-Z\\\\-_]",
  ].join("|"),
  "g",
);

/**
 * Terminal output as plain text for a model: escape sequences removed, and a line redrawn with
 * carriage returns (progress bars, spinners) reduced to what it finally showed.
 */
export function toPlainText(text: string): string {
  return text
    .replace(ANSI, "")
    .split("\n")
    .map((line) => {
      const body = line.endsWith("\r") ? line.slice(0, -1) : line;
      if (!body.includes("\r")) return body;
      const frames = body.split("\r").filter((frame) => frame !== "");
      return frames[frames.length - 1] ?? "";
    })
    .join("\n");
}

/** Kept output as plain text, with a note where the middle was dropped; `empty` when there is none. */
export function renderKeptOutput(output: KeptOutput, empty = "(no output)"): string {
  const head = toPlainText(output.head);
  if (output.omitted === 0) return `${head}${toPlainText(output.tail)}` || empty;
  return `${head}\n[... ${output.omitted} characters omitted ...]\n${toPlainText(output.tail)}`;
}

/** How a text file is laid out on disk: its line ending and whether it starts with a UTF-8 BOM. */
export interface TextFormat {
  eol: "\n" | "\r\n";
  bom: boolean;
}

const BOM = "\uFEFF";
const BINARY_SNIFF_BYTES = 8192;

/** True when the first 8 KB hold a NUL byte, the usual sign of a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The format of `text`: CRLF when most of its line breaks are CRLF. */
export function detectTextFormat(text: string): TextFormat {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = text.match(/\n/g)?.length ?? 0;
  return { eol: crlf > 0 && crlf * 2 >= lf ? "\r\n" : "\n", bom: text.startsWith(BOM) };
}

/** `text` without a BOM and with LF line breaks: the form tools match and edit in. */
export function toLf(text: string): string {
  return (text.startsWith(BOM) ? text.slice(1) : text).replace(/\r\n/g, "\n");
}

/** LF `text` (or text with mixed breaks) written back in `format`. */
export function applyTextFormat(text: string, format: TextFormat): string {
  const lf = toLf(text);
  const body = format.eol === "\r\n" ? lf.replace(/\n/g, "\r\n") : lf;
  return format.bom ? BOM + body : body;
}

/** The lines of LF `text`; a final line break does not start another line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

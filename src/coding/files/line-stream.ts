import { createReadStream } from "node:fs";
import { looksBinary } from "./text-format.js";

/** Lines `first..last` of a file read as a stream, with the file's line count. */
export interface StreamedLines {
  /** The lines of the range that exist, without line breaks (LF or CRLF) or a leading BOM. */
  lines: string[];
  /** For each of `lines`: bytes left out because the line was longer than `maxLineBytes`, else 0. */
  omittedBytes: number[];
  /** Lines in the whole file; a final line break does not start another line. */
  totalLines: number;
  /** True when the first 8 KB look binary; nothing else is read then. */
  binary: boolean;
}

const LF = 0x0a;

/**
 * Reads a range of lines without loading the file: only the range's lines are kept (each at most
 * `maxLineBytes`), the rest are only counted. Contract: throws on file system errors and, via
 * `signal`, when aborted.
 */
export async function readLineRange(
  path: string,
  first: number,
  last: number,
  maxLineBytes: number,
  signal?: AbortSignal,
): Promise<StreamedLines> {
  const result: StreamedLines = { lines: [], omittedBytes: [], totalLines: 0, binary: false };
  let lineNo = 1;
  let parts: Buffer[] = [];
  let kept = 0;
  let lineBytes = 0;
  let sniffed = false;
  const finishLine = () => {
    if (lineNo >= first && lineNo <= last) {
      let text = Buffer.concat(parts).toString("utf8");
      if (lineNo === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
      if (text.endsWith("\r")) text = text.slice(0, -1);
      result.lines.push(text);
      result.omittedBytes.push(lineBytes - kept);
    }
    parts = [];
    kept = 0;
    lineBytes = 0;
  };
  for await (const chunk of createReadStream(path)) {
    signal?.throwIfAborted();
    const bytes = chunk as Buffer;
    if (!sniffed) {
      sniffed = true;
      if (looksBinary(bytes)) return { ...result, binary: true };
    }
    let pos = 0;
    while (pos <= bytes.length) {
      const newline = bytes.indexOf(LF, pos);
      const end = newline === -1 ? bytes.length : newline;
      if (lineNo >= first && lineNo <= last && kept < maxLineBytes) {
        const piece = bytes.subarray(pos, Math.min(end, pos + maxLineBytes - kept));
        parts.push(Buffer.from(piece));
        kept += piece.length;
      }
      lineBytes += end - pos;
      if (newline === -1) break;
      finishLine();
      lineNo += 1;
      pos = newline + 1;
    }
  }
  if (lineBytes > 0) {
    finishLine();
    result.totalLines = lineNo;
  } else {
    result.totalLines = lineNo - 1;
  }
  return result;
}

import fs from "node:fs/promises";
import nodePath from "node:path";
import * as z from "zod/mini";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import { IMAGE_EXTENSIONS, type ImageMediaType, sniffImage } from "../files/image-info.js";
import { readLineRange } from "../files/line-stream.js";
import { type LineSource, numberLines } from "../files/numbered-lines.js";
import { extractPdfText, PdfReadError, type PdfText } from "../files/pdf-text.js";
import { createReadMemo, type ReadMemo } from "../files/read-memo.js";
import { looksBinary, splitLines, toLf } from "../files/text-format.js";
import type { Workspace } from "../workspace.js";
import { describeFileError, errorResult, resolveToolPath } from "./tool-results.js";

const describe = (maxLines: number, supportsImages: boolean) =>
  [
    `Read a file in the workspace. Lines come numbered ("  12 | text"); the numbers are not part of the file, so leave them out when you quote lines in replace_in_file. At most ${maxLines} lines are returned per call: use start_line and end_line (1-based, inclusive) to read a large file in parts.`,
    "PDFs are returned as their extracted text, page by page, numbered the same way.",
    supportsImages
      ? "PNG, JPEG, GIF and WebP images are returned as images you can see."
      : "Images cannot be viewed with the current model.",
    "Other binary files cannot be read. Re-reading the same lines of a file that has not changed since you read it in this task returns a short note instead of the same content; read it once more to get the content anyway.",
  ].join(" ");

const schema = z.object({
  path: z.string().check(z.describe("Path of the file, relative to the workspace root.")),
  start_line: z.optional(
    z.int().check(z.minimum(1), z.describe("First line to read, 1-based. Defaults to 1.")),
  ),
  end_line: z.optional(
    z
      .int()
      .check(
        z.minimum(1),
        z.describe(
          "Last line to read, 1-based and inclusive. Defaults to the end of the file or of the window.",
        ),
      ),
  ),
});

export type ReadFileInput = z.infer<typeof schema>;

/** A window of numbered lines: of the file, or (`kind: "pdf"`) of a PDF's extracted text. */
export interface ReadFileLinesDetails {
  kind: "text" | "pdf";
  /** Workspace-relative path. */
  path: string;
  startLine: number;
  /** Last line shown; `startLine - 1` for an empty file. */
  endLine: number;
  totalLines: number;
  /** For a PDF: its number of pages. */
  pageCount?: number;
  /** True when the content was not sent again because it is unchanged since the last identical read. */
  unchanged?: true;
}

/** An image returned as an image block. */
export interface ReadFileImageDetails {
  kind: "image";
  path: string;
  mediaType: ImageMediaType;
  bytes: number;
  width?: number;
  height?: number;
  unchanged?: true;
}

export type ReadFileDetails = ReadFileLinesDetails | ReadFileImageDetails;

export interface ReadFileOptions {
  workspace: Workspace;
  /** Most lines returned by one call. Default 1000. */
  maxLines?: number;
  /** Longer lines are cut, with a note. Default 2000 characters. */
  maxLineLength?: number;
  /** Larger files are refused, unless a line range is asked for (then they are streamed). Default 20 MB. */
  maxFileBytes?: number;
  /** Whether the model accepts image content; when false, images are refused with a note. Default false. */
  supportsImages?: boolean;
  /** Larger images are refused. Default 5 MB. */
  maxImageBytes?: number;
}

type Result = ToolResult<ReadFileDetails>;
type LinesResult = ToolResult<ReadFileLinesDetails>;

/**
 * The read_file tool. Create one per task: it remembers what it returned (by task, absolute path
 * and range) so an identical read of an unchanged file gets a short note instead of a repeat.
 */
export function createReadFileTool(options: ReadFileOptions): ToolHandler<ReadFileInput, ReadFileDetails> {
  const maxLines = options.maxLines ?? 1000;
  const maxLineLength = options.maxLineLength ?? 2000;
  const maxFileBytes = options.maxFileBytes ?? 20 * 1024 * 1024;
  const maxImageBytes = options.maxImageBytes ?? 5 * 1024 * 1024;
  const supportsImages = options.supportsImages ?? false;
  const memo: ReadMemo<ReadFileDetails> = createReadMemo();
  const render = (display: string, source: LineSource, input: ReadFileInput) =>
    renderWindow(display, source, input, maxLines, maxLineLength);

  async function readImage(abs: string, display: string, size: number): Promise<Result | undefined> {
    const head = await readHead(abs, 64 * 1024);
    const info = sniffImage(head);
    if (info === undefined) return undefined;
    if (!supportsImages) {
      return errorResult(
        `${display} is an image (${info.format}, ${formatBytes(size)}), and the current model cannot view images. Ask the person to describe it if you need its content.`,
      );
    }
    if (size > maxImageBytes) {
      return errorResult(
        `${display} is too large to view (${formatBytes(size)}; images are limited to ${formatBytes(maxImageBytes)}).`,
      );
    }
    const bytes = await fs.readFile(abs);
    const full = sniffImage(bytes) ?? info;
    const dims = full.width !== undefined ? `, ${full.width}x${full.height}` : "";
    const details: ReadFileImageDetails = {
      kind: "image",
      path: display,
      mediaType: full.mediaType,
      bytes: bytes.length,
      ...(full.width !== undefined ? { width: full.width, height: full.height } : {}),
    };
    return {
      content: [
        { type: "text", text: `Image ${display} (${full.format}, ${formatBytes(bytes.length)}${dims}).` },
        { type: "image", mediaType: full.mediaType, data: bytes.toString("base64") },
      ],
      details,
    };
  }

  async function readPdf(abs: string, display: string, input: ReadFileInput): Promise<Result> {
    const bytes = await fs.readFile(abs);
    let pdf: PdfText;
    try {
      pdf = await extractPdfText(bytes);
    } catch (error) {
      if (!(error instanceof PdfReadError)) throw error;
      return errorResult(`${display} could not be read as a PDF: ${error.message}`);
    }
    const pageNote = `${pdf.pageCount} page${pdf.pageCount === 1 ? "" : "s"}`;
    if (pdf.pages.every((page) => page.trim() === "")) {
      const details = { kind: "pdf" as const, path: display, startLine: 1, endLine: 0, totalLines: 0 };
      return {
        content: `(${display} is a PDF of ${pageNote} with no extractable text; it may be scanned images.)`,
        details: { ...details, pageCount: pdf.pageCount },
      };
    }
    const lines = pdf.pages.flatMap((page, i) => [
      `--- page ${i + 1} of ${pdf.pageCount} ---`,
      ...splitLines(toLf(page)),
    ]);
    const result = render(display, { lines, first: 1, total: lines.length }, input);
    if (result.isError || result.details === undefined) return result;
    return {
      content: `${result.content}\n\n(PDF of ${pageNote}; the line numbers count its extracted text.)`,
      details: { ...result.details, kind: "pdf", pageCount: pdf.pageCount },
    };
  }

  async function readLarge(
    abs: string,
    display: string,
    size: number,
    input: ReadFileInput,
    signal: AbortSignal,
  ) {
    if (input.start_line === undefined && input.end_line === undefined) {
      return errorResult(
        `${display} is too large to read whole (${formatBytes(size)}; the limit is ${formatBytes(maxFileBytes)}). Read a part with start_line and end_line, or use search_files to find the lines you need.`,
      );
    }
    const start = input.start_line ?? 1;
    const last = Math.min(input.end_line ?? Number.POSITIVE_INFINITY, start + maxLines - 1);
    const streamed = await readLineRange(abs, start, last, maxLineLength * 4, signal);
    if (streamed.binary) return binaryRefusal(display);
    const { lines, omittedBytes, totalLines } = streamed;
    return render(display, { lines, first: start, total: totalLines, omittedBytes }, input);
  }

  async function readContent(
    abs: string,
    display: string,
    size: number,
    input: ReadFileInput,
    signal: AbortSignal,
  ): Promise<Result> {
    const extension = nodePath.extname(abs).toLowerCase();
    if (IMAGE_EXTENSIONS.has(extension)) {
      const image = await readImage(abs, display, size);
      if (image !== undefined) return image;
    }
    if (extension === ".pdf") {
      if (size > maxFileBytes) {
        return errorResult(
          `${display} is too large to read (${formatBytes(size)}). Use search_files instead.`,
        );
      }
      return readPdf(abs, display, input);
    }
    if (size > maxFileBytes) return readLarge(abs, display, size, input, signal);
    const bytes = await fs.readFile(abs);
    if (looksBinary(bytes)) return binaryRefusal(display);
    const lines = splitLines(toLf(bytes.toString("utf8")));
    return render(display, { lines, first: 1, total: lines.length }, input);
  }

  return {
    name: "read_file",
    description: describe(maxLines, supportsImages),
    inputSchema: schema,
    mutates: false,
    summarize: (input) => `read_file ${input.path}${rangeSuffix(input)}`,
    async execute(input, ctx) {
      const resolved = resolveToolPath(options.workspace, input.path);
      if (!resolved.ok) return resolved.result;
      const { abs, display } = resolved;
      const start = input.start_line ?? 1;
      if (input.end_line !== undefined && input.end_line < start) {
        return errorResult(`end_line (${input.end_line}) is before start_line (${start}).`);
      }
      try {
        const stats = await fs.stat(abs, { bigint: true });
        if (stats.isDirectory())
          return errorResult(`${display} is a directory. Use list_files to see its contents.`);
        const key = `${ctx.taskId}\0${abs}\0${start}-${input.end_line ?? ""}`;
        const stamp = { mtimeNs: stats.mtimeNs, size: stats.size };
        const earlier = memo.takeUnchanged(key, stamp);
        if (earlier !== undefined) return unchangedNote(earlier.value, earlier.at);
        const result = await readContent(abs, display, Number(stats.size), input, ctx.signal);
        if (shouldRemember(result)) memo.remember(key, stamp, result.details);
        return result;
      } catch (error) {
        const message = describeFileError(error, display);
        if (message === undefined) throw error;
        return errorResult(message);
      }
    },
  };
}

/** Only reads that returned content are remembered: not errors, and not an empty file's note. */
function shouldRemember(result: Result): result is Result & { details: ReadFileDetails } {
  if (result.isError || result.details === undefined) return false;
  return result.details.kind === "image" || result.details.totalLines > 0;
}

function unchangedNote(details: ReadFileDetails, at: Date): Result {
  const what = details.kind === "image" ? "viewed it" : `read lines ${details.startLine}-${details.endLine}`;
  const time = at.toTimeString().slice(0, 8);
  return {
    content: `(File unchanged since you ${what} at ${time}; the content is in your earlier result. If you no longer have it, call read_file again with the same arguments to get it.)`,
    details: { ...details, unchanged: true },
  };
}

function binaryRefusal(display: string): ToolResult<never> {
  return errorResult(
    `${display} looks like a binary file (it contains NUL bytes); read_file only reads text.`,
  );
}

async function readHead(abs: string, length: number): Promise<Buffer> {
  const handle = await fs.open(abs, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function rangeSuffix(input: ReadFileInput): string {
  if (input.start_line === undefined && input.end_line === undefined) return "";
  return `:${input.start_line ?? 1}-${input.end_line ?? ""}`;
}

function renderWindow(
  display: string,
  source: LineSource,
  input: ReadFileInput,
  maxLines: number,
  maxLineLength: number,
): LinesResult {
  const { total } = source;
  const start = input.start_line ?? 1;
  if (total === 0) {
    const details = { kind: "text" as const, path: display, startLine: 1, endLine: 0, totalLines: 0 };
    return { content: `(${display} is empty.)`, details };
  }
  if (start > total) {
    return errorResult(`start_line ${start} is past the end of ${display}, which has ${total} lines.`);
  }
  const end = Math.min(input.end_line ?? total, total, start + maxLines - 1);
  const notes: string[] = [];
  if (end < total) {
    notes.push(`(Showing lines ${start}-${end} of ${total}. Use start_line=${end + 1} to read more.)`);
  } else if (start > 1) {
    notes.push(`(Showing lines ${start}-${end} of ${total}.)`);
  }
  const content = [numberLines(source, start, end, maxLineLength), ...notes].join("\n\n");
  const details = { kind: "text" as const, path: display, startLine: start, endLine: end, totalLines: total };
  return { content, details };
}

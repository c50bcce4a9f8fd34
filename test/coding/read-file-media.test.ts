import zlib from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReadFileTool, type ReadFileOptions } from "../../src/coding/tools/read-file.js";
import { createTempWorkspace, type TempWorkspace, textOf } from "./temp-workspace.js";
import { createTestToolContext } from "./tool-context.js";

/** A valid PNG of `width` x `height` grey pixels. */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter type per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A GIF header with a `width` x `height` logical screen, one global colour and a trailer. */
function makeGif(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen.set([0x80, 0, 0], 4);
  return Buffer.concat([
    Buffer.from("GIF89a", "latin1"),
    screen,
    Buffer.from([0, 0, 0, 255, 255, 255, 0x3b]),
  ]);
}

/**
 * A minimal PDF written by hand: one page per entry of `pages`, each line drawn with Helvetica.
 * `compress` stores the content streams Flate-encoded, as most real PDFs do.
 */
function makePdf(pages: string[][], compress = false): Buffer {
  const objects: Buffer[] = [];
  const text = (s: string) => Buffer.from(s, "latin1");
  const fontId = 3 + pages.length * 2;
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(" ");
  objects.push(text("<< /Type /Catalog /Pages 2 0 R >>"));
  objects.push(text(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`));
  pages.forEach((lines, i) => {
    objects.push(
      text(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${4 + i * 2} 0 R >>`,
      ),
    );
    const ops = text(lines.map((line, j) => `BT /F1 12 Tf 72 ${720 - j * 20} Td (${line}) Tj ET`).join("\n"));
    const data = compress ? zlib.deflateSync(ops) : ops;
    const filter = compress ? " /Filter /FlateDecode" : "";
    objects.push(
      Buffer.concat([text(`<< /Length ${data.length}${filter} >>\nstream\n`), data, text("\nendstream")]),
    );
  });
  objects.push(text("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"));
  const parts: Buffer[] = [text("%PDF-1.4\n")];
  let size = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(size);
    const framed = Buffer.concat([text(`${i + 1} 0 obj\n`), object, text("\nendobj\n")]);
    parts.push(framed);
    size += framed.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`,
  ].join("");
  return Buffer.concat([...parts, text(xref)]);
}

describe("read_file images", () => {
  let temp: TempWorkspace;
  const run = (input: { path: string }, options: Partial<ReadFileOptions> = {}) =>
    createReadFileTool({ workspace: temp.workspace, ...options }).execute(input, createTestToolContext().ctx);

  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(() => temp.remove());

  it("returns a PNG as an image block with its size when the model supports images", async () => {
    const png = makePng(3, 2);
    await temp.write({ "img/dot.png": png });
    const result = await run({ path: "img/dot.png" }, { supportsImages: true });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      { type: "text", text: `Image img/dot.png (PNG, ${png.length} bytes, 3x2).` },
      { type: "image", mediaType: "image/png", data: png.toString("base64") },
    ]);
    expect(result.details).toEqual({
      kind: "image",
      path: "img/dot.png",
      mediaType: "image/png",
      bytes: png.length,
      width: 3,
      height: 2,
    });
  });

  it("takes the media type from the bytes, not the extension", async () => {
    await temp.write({ "anim.jpg": makeGif(16, 9) });
    const result = await run({ path: "anim.jpg" }, { supportsImages: true });
    expect(result.details).toMatchObject({ kind: "image", mediaType: "image/gif", width: 16, height: 9 });
    expect(textOf(result.content)).toContain("(GIF, 20 bytes, 16x9)");
  });

  it("says the model cannot view images when it does not support them", async () => {
    await temp.write({ "dot.png": makePng(1, 1) });
    const result = await run({ path: "dot.png" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(
      /dot\.png is an image \(PNG, .*\), and the current model cannot view images/,
    );
  });

  it("refuses images over the size cap", async () => {
    await temp.write({ "big.png": makePng(64, 64) });
    const result = await run({ path: "big.png" }, { supportsImages: true, maxImageBytes: 50 });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(
      /big\.png is too large to view \(.*; images are limited to 50 bytes\)/,
    );
  });

  it("reads a text file with an image extension as text", async () => {
    await temp.write({ "notes.png": "not really an image\n" });
    const result = await run({ path: "notes.png" }, { supportsImages: true });
    expect(textOf(result.content)).toBe("1 | not really an image");
  });

  it("still refuses other binary files", async () => {
    await temp.write({ "data.bin": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]) });
    const result = await run({ path: "data.bin" }, { supportsImages: true });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/binary/);
  });
});

describe("read_file PDFs", () => {
  let temp: TempWorkspace;
  const run = (input: { path: string; start_line?: number; end_line?: number }) =>
    createReadFileTool({ workspace: temp.workspace }).execute(input, createTestToolContext().ctx);

  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(() => temp.remove());

  it("returns the text of each page, numbered, with the page count", async () => {
    await temp.write({ "doc.pdf": makePdf([["Hello world", "Second line"], ["Page two text"]]) });
    const result = await run({ path: "doc.pdf" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe(
      [
        "1 | --- page 1 of 2 ---",
        "2 | Hello world",
        "3 | Second line",
        "4 | --- page 2 of 2 ---",
        "5 | Page two text",
        "",
        "(PDF of 2 pages; the line numbers count its extracted text.)",
      ].join("\n"),
    );
    expect(result.details).toEqual({
      kind: "pdf",
      path: "doc.pdf",
      startLine: 1,
      endLine: 5,
      totalLines: 5,
      pageCount: 2,
    });
  });

  it("windows compressed PDF text like a text file", async () => {
    await temp.write({ "c.pdf": makePdf([["alpha", "beta"], ["gamma"], ["delta"]], true) });
    const result = await run({ path: "c.pdf", start_line: 4, end_line: 5 });
    const text = textOf(result.content);
    expect(text).toContain("4 | --- page 2 of 3 ---\n5 | gamma");
    expect(text).toContain("(Showing lines 4-5 of 7. Use start_line=6 to read more.)");
    expect(result.details).toMatchObject({ kind: "pdf", pageCount: 3, totalLines: 7 });
  });

  it("says when a PDF has no extractable text", async () => {
    await temp.write({ "scan.pdf": makePdf([[], []]) });
    const result = await run({ path: "scan.pdf" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result.content)).toBe(
      "(scan.pdf is a PDF of 2 pages with no extractable text; it may be scanned images.)",
    );
    expect(result.details).toMatchObject({ kind: "pdf", pageCount: 2, totalLines: 0 });
  });

  it("reports a file that is not a readable PDF", async () => {
    await temp.write({ "broken.pdf": "this is not a pdf" });
    const result = await run({ path: "broken.pdf" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/broken\.pdf could not be read as a PDF/);
  });
});

describe("read_file on files over the size limit", () => {
  let temp: TempWorkspace;
  const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");
  const run = (input: { path: string; start_line?: number; end_line?: number }) =>
    createReadFileTool({ workspace: temp.workspace, maxFileBytes: 1000, maxLineLength: 10 }).execute(
      input,
      createTestToolContext().ctx,
    );

  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(() => temp.remove());

  it("refuses a whole read and suggests a range or search_files", async () => {
    await temp.write({ "huge.log": numbered(500) });
    const result = await run({ path: "huge.log" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content)).toMatch(/too large to read whole.*start_line and end_line.*search_files/);
  });

  it("streams a range across read chunks, counting every line", async () => {
    await temp.write({ "huge.log": `\uFEFF${numbered(30_000).replace(/\n/g, "\r\n")}\r\n` });
    const result = await run({ path: "huge.log", start_line: 12_000, end_line: 12_002 });
    expect(textOf(result.content)).toBe(
      "12000 | line 12000\n12001 | line 12001\n12002 | line 12002\n\n(Showing lines 12000-12002 of 30000. Use start_line=12003 to read more.)",
    );
    const first = await run({ path: "huge.log", end_line: 1 });
    expect(textOf(first.content).split("\n")[0]).toBe("1 | line 1");
  });

  it("cuts long streamed lines and refuses binary ones", async () => {
    await temp.write({ "wide.txt": `short\n${"é".repeat(2000)}\n`, "blob.bin": Buffer.alloc(2000) });
    const wide = await run({ path: "wide.txt", start_line: 2 });
    expect(textOf(wide.content)).toContain(`2 | ${"é".repeat(10)}… [line cut: 3980 more bytes]`);
    const blob = await run({ path: "blob.bin", start_line: 1 });
    expect(blob.isError).toBe(true);
    expect(textOf(blob.content)).toMatch(/binary/);
  });
});

/** Image formats read_file can hand to a model that accepts images. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** What an image's first bytes say about it; the size is absent when the header does not give it cheaply. */
export interface ImageInfo {
  mediaType: ImageMediaType;
  /** Short name for messages, e.g. `PNG`. */
  format: string;
  width?: number;
  height?: number;
}

/** File extensions (lower case, with the dot) treated as images when their bytes agree. */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp"]);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image format of `bytes` from its signature, with its dimensions when the header holds them. */
export function sniffImage(bytes: Uint8Array): ImageInfo | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, PNG_SIGNATURE)) {
    const info: ImageInfo = { mediaType: "image/png", format: "PNG" };
    return bytes.length >= 24 && ascii(bytes, 12, 4) === "IHDR"
      ? { ...info, width: view.getUint32(16), height: view.getUint32(20) }
      : info;
  }
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") {
    const info: ImageInfo = { mediaType: "image/gif", format: "GIF" };
    return bytes.length >= 10
      ? { ...info, width: view.getUint16(6, true), height: view.getUint16(8, true) }
      : info;
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    return { mediaType: "image/jpeg", format: "JPEG", ...jpegSize(bytes, view) };
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") {
    return { mediaType: "image/webp", format: "WebP", ...webpSize(bytes, view) };
  }
  return undefined;
}

type Size = { width: number; height: number } | Record<string, never>;

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(bytes: Uint8Array, view: DataView): Size {
  let pos = 2;
  while (pos + 9 <= bytes.length) {
    if (bytes[pos] !== 0xff) return {};
    const marker = bytes[pos + 1] ?? 0;
    if (marker === 0xff) {
      pos += 1;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: view.getUint16(pos + 5), width: view.getUint16(pos + 7) };
    const standalone = marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);
    pos += standalone ? 2 : 2 + view.getUint16(pos + 2);
  }
  return {};
}

/** The canvas size from the first WebP chunk (lossy, lossless or extended). */
function webpSize(bytes: Uint8Array, view: DataView): Size {
  if (bytes.length < 30) return {};
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 ") {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    const uint24 = (at: number) => view.getUint16(at, true) + ((bytes[at + 2] ?? 0) << 16);
    return { width: uint24(24) + 1, height: uint24(27) + 1 };
  }
  return {};
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

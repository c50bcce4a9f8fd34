/**
 * Images the person attaches: a dropped or pasted image file (terminals paste its path), or an
 * image on the clipboard (Ctrl-V, read with the system's clipboard tool where there is one).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, extname, isAbsolute, resolve } from "node:path";
import { IMAGE_EXTENSIONS, sniffImage } from "../../coding/files/image-info.js";
import type { ImageAttachment } from "../../protocol/index.js";

/** Larger images are refused (providers take about 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface AttachedImage {
  /** What the placeholder shows: the file name, or `clipboard`. */
  label: string;
  image: ImageAttachment;
}

/**
 * The image file a paste names, when the whole paste is one path to an image: quoted, escaped
 * (`my\ shot.png`), `file://` or `~/`, absolute or relative to `cwd`. Undefined otherwise.
 */
export function pastedImagePath(pasted: string, cwd: string): string | undefined {
  let text = pasted.trim();
  if (!text || text.includes("\n")) return undefined;
  text = text.replace(/^(['"])(.*)\1$/, "$2");
  if (text.startsWith("file://")) text = decodeURIComponent(text.slice("file://".length));
  text = text.replace(/\\(.)/g, "$1");
  if (text.startsWith("~/")) text = `${homedir()}${text.slice(1)}`;
  if (!IMAGE_EXTENSIONS.has(extname(text).toLowerCase())) return undefined;
  const path = isAbsolute(text) ? text : resolve(cwd, text);
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Reads an image file; throws with a message for the person when it is too large or not an image. */
export function readImageFile(path: string): AttachedImage {
  const size = statSync(path).size;
  if (size > MAX_IMAGE_BYTES) throw new Error(`${basename(path)} is over 5 MB: not attached.`);
  return { label: basename(path), image: imageOf(readFileSync(path), basename(path)) };
}

/**
 * The clipboard's image, through `wl-paste` (Wayland), `xclip` (X11) or `pngpaste` (macOS),
 * whichever is installed; undefined when none is or the clipboard holds no image.
 */
export function clipboardImage(env: NodeJS.ProcessEnv = process.env): AttachedImage | undefined {
  const tools: Array<[string, string[]]> = env.WAYLAND_DISPLAY
    ? [["wl-paste", ["--no-newline", "--type", "image/png"]]]
    : [];
  if (env.DISPLAY) tools.push(["xclip", ["-selection", "clipboard", "-target", "image/png", "-out"]]);
  if (process.platform === "darwin") tools.push(["pngpaste", ["-"]]);
  for (const [command, args] of tools) {
    const run = spawnSync(command, args, { timeout: 2000, maxBuffer: MAX_IMAGE_BYTES, env });
    if (run.status !== 0 || !run.stdout || run.stdout.length === 0) continue;
    try {
      return { label: "clipboard", image: imageOf(run.stdout, "the clipboard") };
    } catch {
      // Not an image after all: try the next tool.
    }
  }
  return undefined;
}

function imageOf(bytes: Buffer, name: string): ImageAttachment {
  const info = sniffImage(bytes);
  if (!info) throw new Error(`${name} is not a PNG, JPEG, GIF or WebP image: not attached.`);
  return { mediaType: info.mediaType, data: bytes.toString("base64") };
}

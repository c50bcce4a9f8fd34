import fs from "node:fs";
import { pathToFileURL } from "node:url";
import type { Workspace } from "../workspace.js";

/** A URL to open, or why the given text cannot be opened. */
export type ResolvedUrl = { ok: true; url: string } | { ok: false; message: string };

const WITH_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const HOST_LIKE =
  /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]|[a-z0-9-]+(\.[a-z0-9-]+)+)(:\d+)?(\/|$|\?|#)/i;

/**
 * The URL a model's `url` names: a file inside the workspace as a file: URL; `localhost:3000/x`
 * or `example.com` as http(s); a URL with a scheme as given. Never throws.
 */
export function resolveBrowserUrl(text: string, workspace?: Workspace): ResolvedUrl {
  const trimmed = text.trim();
  // A workspace file wins over a host name: "index.html" looks like one.
  const file = workspace ? workspaceFile(trimmed, workspace) : undefined;
  if (file) return { ok: true, url: pathToFileURL(file).href };
  if (HOST_LIKE.test(trimmed)) {
    const local = /^(localhost|127\.|\[::1\])/i.test(trimmed);
    return { ok: true, url: `${local ? "http" : "https"}://${trimmed}` };
  }
  if (WITH_SCHEME.test(trimmed)) return { ok: true, url: trimmed };
  return {
    ok: false,
    message: `"${text}" is not a URL. Give a full URL such as http://localhost:3000 or file:///path/to/page.html${workspace ? ", or the path of an HTML file in the workspace" : ""}.`,
  };
}

/** The absolute path of `text` when it names a file inside the workspace. */
function workspaceFile(text: string, workspace: Workspace): string | undefined {
  if (WITH_SCHEME.test(text) && !HOST_LIKE.test(text)) return undefined;
  try {
    const abs = workspace.resolve(text);
    return fs.statSync(abs).isFile() ? abs : undefined;
  } catch {
    // Outside the workspace, missing or unreadable: not a workspace file.
    return undefined;
  }
}

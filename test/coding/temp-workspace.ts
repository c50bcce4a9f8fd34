import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createWorkspace, type Workspace } from "../../src/coding/workspace.js";

/** A real workspace in a fresh temporary directory. */
export interface TempWorkspace {
  workspace: Workspace;
  /** The workspace root (realpath'd). */
  root: string;
  /** Writes files (parents created), relative to the root. */
  write(files: Record<string, string | Buffer>): Promise<void>;
  read(relative: string): Promise<string>;
  /** Removes the directory. */
  remove(): Promise<void>;
}

export async function createTempWorkspace(
  files: Record<string, string | Buffer> = {},
): Promise<TempWorkspace> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bowline-test-"));
  const workspace = createWorkspace(dir);
  const root = workspace.root;
  const write = async (entries: Record<string, string | Buffer>) => {
    for (const [name, content] of Object.entries(entries)) {
      const abs = path.join(root, name);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      await fs.writeFile(abs, content);
    }
  };
  await write(files);
  return {
    workspace,
    root,
    write,
    read: (relative) => fs.readFile(path.join(root, relative), "utf8"),
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/** The text of a tool result's content. */
export function textOf(content: string | Array<{ type: string; text?: string }>): string {
  return typeof content === "string" ? content : content.map((block) => block.text ?? "").join("");
}

import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, parse, relative, sep } from "node:path";

/** `<home>/checkpoints/<first 16 hex digits of sha256(workspace path)>`. */
export function storeDirFor(home: string, workspace: string): string {
  const hash = createHash("sha256").update(workspace).digest("hex").slice(0, 16);
  return join(home, "checkpoints", hash);
}

/** The workspace's real path (symbolic links resolved), so one folder always maps to one store. */
export async function resolveWorkspace(workspace: string): Promise<string> {
  return realpath(workspace);
}

/**
 * Why a folder must not be checkpointed, if it must not: the root of a file system, or a home
 * directory or a folder holding one (all of a person's files, and the usual place of Bowline's
 * own store).
 */
export async function refusalOf(
  workspace: string,
  env: Record<string, string | undefined>,
): Promise<string | undefined> {
  if (parse(workspace).root === workspace) {
    return `Checkpoints are off: ${workspace} is the root of the file system. Open a project folder instead.`;
  }
  const homes = [homedir(), env.HOME, env.USERPROFILE].filter((path): path is string => Boolean(path));
  for (const home of homes) {
    const real = await realpath(home).catch(() => home);
    if (real === workspace) {
      return `Checkpoints are off: ${workspace} is a home directory. Open a project folder instead.`;
    }
    const rel = relative(workspace, real);
    if (rel.split(sep)[0] !== ".." && !isAbsolute(rel)) {
      return `Checkpoints are off: ${workspace} holds the home directory ${real}. Open a project folder instead.`;
    }
  }
  return undefined;
}

/**
 * A path relative to the workspace when it lies inside it: Bowline's home there (its store and
 * journals change at every step) must be left out of checkpoints.
 */
export async function pathInside(workspace: string, path: string): Promise<string | undefined> {
  const real = await realpath(path).catch(() => path);
  const rel = relative(workspace, real);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : undefined;
}

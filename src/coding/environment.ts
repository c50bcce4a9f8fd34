import { readdir } from "node:fs/promises";

const LISTING_LIMIT = 100;
const SKIPPED = new Set([".git", "node_modules"]);

/**
 * Facts about the workspace sent once, with the first message of a task (not on every turn,
 * which only grows the history).
 */
export async function environmentDetails(workspaceRoot: string): Promise<string> {
  const entries = await readdir(workspaceRoot, { withFileTypes: true });
  const names = entries
    .filter((entry) => !SKIPPED.has(entry.name))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort();
  const shown = names.slice(0, LISTING_LIMIT);
  const more = names.length > shown.length ? `\n(${names.length - shown.length} more entries not shown)` : "";
  return `<environment_details>\n# Workspace root: ${workspaceRoot}\n# Top-level files\n${shown.join("\n") || "(empty)"}${more}\n</environment_details>`;
}

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** One rules file as the model sees it. */
export interface RulesFile {
  /** Where it came from, for the prompt (`AGENTS.md`, `~/.bowline/rules/style.md`). */
  source: string;
  text: string;
}

const MAX_RULES_CHARS = 20_000;

/**
 * The rules of a task, read once when it starts: the user's (`<home>/rules/*.md`), then the
 * project's (`AGENTS.md` at the root, `.clinerules` as a file or a folder of `.md` files,
 * `.bowline/rules/*.md`). Project rules come last so they read as the more specific ones.
 * Nested `AGENTS.md` files are added as the model works in their folders (`nestedAgentsFile`).
 */
export function loadRules(home: string, workspaceRoot: string): RulesFile[] {
  const files: RulesFile[] = [];
  const add = (path: string, label: string) => {
    const text = readText(path);
    if (text?.trim()) files.push({ source: label, text: text.trim() });
  };
  for (const file of markdownFiles(join(home, "rules")))
    add(file, `~/.bowline/rules/${file.split("/").pop()}`);
  add(join(workspaceRoot, "AGENTS.md"), "AGENTS.md");
  const clinerules = join(workspaceRoot, ".clinerules");
  if (isDirectory(clinerules)) {
    for (const file of markdownFiles(clinerules)) add(file, relative(workspaceRoot, file));
  } else add(clinerules, ".clinerules");
  for (const file of markdownFiles(join(workspaceRoot, ".bowline", "rules")))
    add(file, relative(workspaceRoot, file));
  return files;
}

/** The rules as a system prompt section, capped so a huge file cannot swamp the prompt. */
export function rulesSection(files: readonly RulesFile[]): string {
  if (files.length === 0) return "";
  let budget = MAX_RULES_CHARS;
  const parts: string[] = [];
  for (const file of files) {
    const text =
      file.text.length > budget
        ? `${file.text.slice(0, budget)}\n[... rules cut at ${MAX_RULES_CHARS} characters]`
        : file.text;
    budget -= text.length;
    parts.push(`## ${file.source}\n${text}`);
    if (budget <= 0) break;
  }
  return `# Rules from the user and the project (follow them)\n${parts.join("\n\n")}`;
}

/**
 * The nearest `AGENTS.md` above a file, below the workspace root (the root's own is already in
 * the prompt), or undefined. Nearest wins: the model is shown the one closest to the file.
 */
export function nestedAgentsFile(workspaceRoot: string, absPath: string): string | undefined {
  let dir = isDirectory(absPath) ? absPath : join(absPath, "..");
  while (dir.startsWith(workspaceRoot) && dir !== workspaceRoot) {
    const candidate = join(dir, "AGENTS.md");
    if (existsSync(candidate)) return candidate;
    dir = join(dir, "..");
  }
  return undefined;
}

function markdownFiles(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".md") || name.endsWith(".txt"))
    .sort()
    .map((name) => join(dir, name));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // missing: nothing to read
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // missing or unreadable rules file: there are no rules there
  }
}

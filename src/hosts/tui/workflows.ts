import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A user workflow: `.bowline/workflows/<name>.md`, run as `/<name> [what to add]`. */
export interface Workflow {
  name: string;
  /** The first non-empty line, shown in `/help`. */
  description: string;
  path: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/i;

const workflowsDir = (root: string) => join(root, ".bowline", "workflows");

/** The names of the workspace's workflows (a folder listing only: cheap enough per keystroke). */
export function workflowNames(root: string): string[] {
  try {
    return readdirSync(workflowsDir(root))
      .filter((file) => file.endsWith(".md"))
      .map((file) => file.slice(0, -3))
      .filter((name) => NAME.test(name))
      .sort();
  } catch {
    return []; // no workflows folder
  }
}

/** The workspace's workflows, read from disk each time (so edits take effect at once). */
export function listWorkflows(root: string): Workflow[] {
  return workflowNames(root).map((name) => {
    const path = join(workflowsDir(root), `${name}.md`);
    return { name, path, description: firstLine(readOptional(path)) };
  });
}

/** The message that runs a workflow: its steps, then what the person added. */
export function workflowMessage(workflow: Workflow, args: string): string | undefined {
  const steps = readOptional(workflow.path);
  if (steps === undefined) return undefined;
  const extra = args.trim() ? `\n\n${args.trim()}` : "";
  return `Follow the workflow "${workflow.name}" (.bowline/workflows/${workflow.name}.md):\n\n${steps.trim()}${extra}`;
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // removed since it was listed
  }
}

function firstLine(text: string | undefined): string {
  const line = (text ?? "").split("\n").find((l) => l.trim()) ?? "";
  return line
    .replace(/^#+\s*/, "")
    .trim()
    .slice(0, 60);
}

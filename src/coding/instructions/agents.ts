import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontMatter } from "./front-matter.js";

/** A configured subagent: a markdown file whose front matter names it and whose body instructs it. */
export interface AgentConfig {
  name: string;
  description: string;
  instructions: string;
  path: string;
}

/**
 * Agents from `<home>/agents/*.md` and `<workspace>/.bowline/agents/*.md` (front matter `name`,
 * `description`; the body is the agent's instructions). A project agent wins over a user agent
 * of the same name.
 */
export function discoverAgents(home: string, workspaceRoot: string): AgentConfig[] {
  const byName = new Map<string, AgentConfig>();
  for (const dir of [join(home, "agents"), join(workspaceRoot, ".bowline", "agents")]) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith(".md"));
    } catch {
      continue; // no agents folder
    }
    for (const file of names.sort()) {
      const path = join(dir, file);
      const { data, body } = parseFrontMatter(readFileSync(path, "utf8"));
      const name = (data.name || basename(file, ".md")).trim();
      byName.set(name, {
        name,
        description: (data.description || "").trim(),
        instructions: body.trim(),
        path,
      });
    }
  }
  return [...byName.values()];
}

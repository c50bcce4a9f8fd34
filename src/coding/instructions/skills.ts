import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseFrontMatter } from "./front-matter.js";

/** A skill: instructions the model loads on demand with `use_skill`. */
export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md file. */
  path: string;
}

/**
 * Skills are folders with a `SKILL.md` (front matter `name`, `description`) in
 * `<workspace>/.bowline/skills/` and `<home>/skills/`; a project skill wins over a user skill of
 * the same name. Only names and descriptions go into the prompt; the content is read on use.
 */
export function discoverSkills(home: string, workspaceRoot: string): Skill[] {
  const byName = new Map<string, Skill>();
  for (const root of [join(home, "skills"), join(workspaceRoot, ".bowline", "skills")]) {
    for (const entry of safeList(root)) {
      const path = join(root, entry, "SKILL.md");
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        continue; // a folder without SKILL.md is not a skill
      }
      const { data } = parseFrontMatter(text);
      const name = (data.name || entry).trim();
      byName.set(name, { name, description: (data.description || "").trim(), path });
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function skillsSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description || "(no description)"}`);
  return `# Skills\nLoad a skill with use_skill when the task matches its description:\n${lines.join("\n")}`;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory());
  } catch {
    return []; // no skills folder
  }
}

import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import { parseFrontMatter } from "../instructions/front-matter.js";
import type { Skill } from "../instructions/skills.js";

const schema = z.object({
  skill_name: z.string().check(z.minLength(1), z.describe("The name of the skill, as listed under Skills.")),
});

export type UseSkillInput = z.infer<typeof schema>;
export interface UseSkillDetails {
  skill: string;
  path: string;
}

/** Loads a skill's instructions (the body of its SKILL.md), read fresh on each use. */
export function createUseSkillTool(options: {
  skills: readonly Skill[];
}): ToolHandler<UseSkillInput, UseSkillDetails> {
  return {
    name: "use_skill",
    description: "Loads the instructions of one of the skills listed under Skills, then follow them.",
    inputSchema: schema,
    mutates: false,
    category: "none",
    summarize: (input) => `use_skill ${input.skill_name}`,
    async execute(input) {
      const skill = options.skills.find((candidate) => candidate.name === input.skill_name);
      if (!skill) {
        const names = options.skills.map((candidate) => candidate.name).join(", ") || "none";
        return {
          content: `No skill named "${input.skill_name}". Available skills: ${names}.`,
          isError: true,
        };
      }
      let text: string;
      try {
        text = readFileSync(skill.path, "utf8");
      } catch (error) {
        return {
          content: `The skill "${skill.name}" could not be read: ${(error as Error).message}`,
          isError: true,
        };
      }
      return {
        content: `<skill name="${skill.name}">\n${parseFrontMatter(text).body.trim()}\n</skill>`,
        details: { skill: skill.name, path: skill.path },
      };
    },
  };
}

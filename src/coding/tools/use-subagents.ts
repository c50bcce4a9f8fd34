import * as z from "zod/mini";
import { addUsage, ZERO_USAGE } from "../../agent/task-util.js";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";

const prompt = (n: number) =>
  z
    .string()
    .check(z.minLength(1), z.describe(`Task for subagent ${n}: what to find out and what to report back.`));

const schema = z.object({
  prompt_1: prompt(1),
  prompt_2: z.optional(prompt(2)),
  prompt_3: z.optional(prompt(3)),
  prompt_4: z.optional(prompt(4)),
  prompt_5: z.optional(prompt(5)),
});

export type UseSubagentsInput = z.infer<typeof schema>;
export interface UseSubagentsDetails {
  runs: Array<{ prompt: string; status: string; tokens: number }>;
}

/** What one subagent run gives back. */
export interface SubagentRun {
  status: "completed" | "failed" | "aborted";
  /** Its final report, or why it stopped. */
  text: string;
  tokens: number;
  /** Everything its requests used, priced when the model's prices are known. */
  usage: NonNullable<ToolResult["usage"]>;
}

export interface UseSubagentsOptions {
  /** Runs one read-only subagent loop on a prompt. Contract: never rejects. */
  run(prompt: string, signal: AbortSignal): Promise<SubagentRun>;
}

/**
 * Runs up to five read-only subagents in parallel, each its own loop with the read-only tools
 * and a token budget, and returns their reports. Useful for exploring several parts of a
 * codebase at once without filling the main conversation with file contents.
 */
export function createUseSubagentsTool(
  options: UseSubagentsOptions,
): ToolHandler<UseSubagentsInput, UseSubagentsDetails> {
  return {
    name: "use_subagents",
    description:
      "Runs up to 5 read-only subagents in parallel (they can read, list and search files, not change anything). Give each a self-contained research task; each returns a short report. Use it to explore several areas at once.",
    inputSchema: schema,
    mutates: false,
    category: "read",
    summarize: (input) => `use_subagents (${prompts(input).length})`,
    async execute(input, ctx) {
      const list = prompts(input);
      const runs = await Promise.all(list.map((text) => options.run(text, ctx.signal)));
      const content = runs
        .map((run, i) => `## Subagent ${i + 1} (${run.status})\nTask: ${list[i]}\n\n${run.text}`)
        .join("\n\n");
      return {
        content,
        isError: runs.every((run) => run.status !== "completed") || undefined,
        usage: totalUsage(runs),
        details: {
          runs: runs.map((run, i) => ({ prompt: list[i]!, status: run.status, tokens: run.tokens })),
        },
      };
    },
  };
}

/** The usage of several runs together (the cost once any of them is priced). */
export function totalUsage(runs: readonly SubagentRun[]): SubagentRun["usage"] {
  const total: SubagentRun["usage"] = { ...ZERO_USAGE };
  for (const { usage } of runs) addUsage(total, usage);
  return total;
}

function prompts(input: UseSubagentsInput): string[] {
  return [input.prompt_1, input.prompt_2, input.prompt_3, input.prompt_4, input.prompt_5].filter(
    (text): text is string => typeof text === "string" && text.trim() !== "",
  );
}

import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import type { AgentConfig } from "../instructions/agents.js";
import type { SubagentRun } from "./use-subagents.js";

const schema = z.object({ prompt: z.string().check(z.minLength(1)) });

export type UseConfiguredSubagentInput = z.infer<typeof schema>;

/**
 * `use_subagent_<name>`: runs one configured agent (read-only, its own loop) on a task, with the
 * agent's instructions ahead of the task. The model-facing description comes from the spec.
 */
export function createConfiguredSubagentTool(options: {
  toolName: string;
  agent: AgentConfig;
  run(prompt: string, signal: AbortSignal): Promise<SubagentRun>;
}): ToolHandler<UseConfiguredSubagentInput, { agent: string; status: string; tokens: number }> {
  const { agent } = options;
  return {
    name: options.toolName,
    description: `Delegate a task to the "${agent.name}" subagent. ${agent.description}`.trim(),
    inputSchema: schema,
    mutates: false,
    category: "read",
    summarize: (input) => `${options.toolName} ${input.prompt.slice(0, 60)}`,
    async execute(input, ctx) {
      const prompt = agent.instructions ? `${agent.instructions}\n\n# Task\n${input.prompt}` : input.prompt;
      const run = await options.run(prompt, ctx.signal);
      return {
        content: `## ${agent.name} (${run.status})\n${run.text}`,
        isError: run.status !== "completed" || undefined,
        usage: run.usage,
        details: { agent: agent.name, status: run.status, tokens: run.tokens },
      };
    },
  };
}

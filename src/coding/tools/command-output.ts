import * as z from "zod/mini";
import type { ToolHandler } from "../../agent/tool.js";
import type { BackgroundEntry, BackgroundRegistry } from "../process/background-registry.js";
import { probeGroupActivity } from "../process/input-wait.js";
import { renderKeptOutput } from "../process/terminal-text.js";

const DESCRIPTION =
  'Read the new output of a command that execute_command left running in the background (everything since the last read; long output keeps its beginning and end), and whether it is still running or its exit code. action "stop" stops it and every process it started. Without an id, lists the background commands.';

const schema = z.object({
  id: z.optional(
    z.string().check(z.describe('The id execute_command returned, e.g. "bg-1". Omit to list them.')),
  ),
  action: z.optional(
    z
      .enum(["read", "stop"])
      .check(z.describe('"read" (the default) returns new output; "stop" stops the command.')),
  ),
});

export type CommandOutputInput = z.infer<typeof schema>;

export interface CommandOutputDetails {
  /** The command read or stopped; undefined when listing or the id is unknown. */
  entry?: BackgroundEntry;
  /** Every background command, when listing or the id is unknown. */
  entries?: BackgroundEntry[];
  /** True when the middle of the new output was left out. */
  truncated: boolean;
}

export interface CommandOutputOptions {
  /** The registry execute_command adds its background commands to. */
  registry: BackgroundRegistry;
}

export function createCommandOutputTool(
  options: CommandOutputOptions,
): ToolHandler<CommandOutputInput, CommandOutputDetails> {
  const { registry } = options;
  return {
    name: "command_output",
    description: DESCRIPTION,
    inputSchema: schema,
    // Reads output and stops only processes this task itself started (already approved then).
    mutates: false,
    category: "none",
    summarize: (input) => `command_output ${input.action ?? "read"} ${input.id ?? "(list)"}`,
    async execute(input) {
      if (input.id === undefined) return listing(registry.list(), "Background commands:");
      if (!registry.get(input.id)) {
        return {
          ...listing(registry.list(), `There is no background command "${input.id}".`),
          isError: true,
        };
      }
      if (input.action === "stop") {
        const stopped = await registry.stop(input.id);
        const read = registry.read(input.id);
        if (!stopped || !read)
          return listing(registry.list(), `There is no background command "${input.id}".`);
        const content = `Stopped ${describeEntry(read.entry)}. Output since the last read:\n${renderKeptOutput(read.output, "(no new output)")}`;
        return { content, details: { entry: read.entry, truncated: read.output.omitted > 0 } };
      }
      const read = registry.read(input.id);
      if (!read) return listing(registry.list(), `There is no background command "${input.id}".`);
      const waiting =
        read.entry.running && probeGroupActivity(read.entry.pid) === "waiting-for-input"
          ? " It appears to be waiting for input (e.g. a prompt), which it cannot get; stop it and pass flags that avoid prompts."
          : "";
      const content = `${describeEntry(read.entry)}.${waiting} Output since the last read:\n${renderKeptOutput(read.output, "(no new output)")}`;
      return { content, details: { entry: read.entry, truncated: read.output.omitted > 0 } };
    },
  };
}

function listing(entries: BackgroundEntry[], title: string) {
  const lines = entries.map((entry) => `- ${describeEntry(entry)}`);
  const body = lines.length > 0 ? lines.join("\n") : "(none)";
  return { content: `${title}\n${body}`, details: { entries, truncated: false } };
}

/** e.g. `bg-1 (npm run dev), running for 12s` or `bg-2 (make), exited with code 2`. */
function describeEntry(entry: BackgroundEntry): string {
  const name = `${entry.id} (${entry.command.split("\n")[0]})`;
  if (entry.running) return `${name}, running for ${Math.round((Date.now() - entry.startedAt) / 1000)}s`;
  if (entry.exit?.code !== null && entry.exit?.code !== undefined)
    return `${name}, exited with code ${entry.exit.code}`;
  return `${name}, terminated by signal ${entry.exit?.signal}`;
}

import type { ToolHandler } from "../../agent/tool.js";
import { redescribe } from "../../agent/tool-set/redescribe.js";
import type { ToolSetRegistry } from "../../agent/tool-set/registry.js";
import type { ToolContextInfo } from "../../agent/tool-spec.js";
import { SEARCH_REPLACE_FORMAT } from "../edit/search-replace.js";

/**
 * When each tool may be offered. Entries for tools without a handler yet take effect once the
 * handler exists.
 */
export const BUILTIN_REQUIREMENTS: Readonly<Record<string, (ctx: ToolContextInfo) => boolean>> = {
  // Nobody answers questions in YOLO mode.
  ask_followup_question: (ctx) => !ctx.yolo,
  new_task: (ctx) => !ctx.yolo,
  browser_action: (ctx) => ctx.browserAvailable && ctx.supportsImages,
  use_skill: (ctx) => ctx.skills.length > 0,
  use_subagents: (ctx) => !ctx.isSubagent,
  // Offered in both modes where the person can switch: the tool list stays the same (and the
  // prompt cache with it), and act mode refuses the call.
  plan_mode_respond: (ctx) => ctx.mode === "plan" || (ctx.modeCanChange === true && !ctx.isSubagent),
};

/** Wording of the `compact` family: short, for small local models. Parameters keep their names and checks. */
export const COMPACT_WORDING: Readonly<
  Record<string, { description: string; params: Readonly<Record<string, string>> }>
> = {
  read_file: {
    description:
      'Read a text file. Lines come numbered ("12 | text"); the numbers are not part of the file. Read long files in parts.',
    params: { path: "File path.", start_line: "First line, 1-based.", end_line: "Last line, inclusive." },
  },
  write_to_file: {
    description: "Create a file or replace all of its content.",
    params: { path: "File path.", content: "The complete new content." },
  },
  replace_in_file: {
    description: `Edit part of a file with one or more blocks:\n${SEARCH_REPLACE_FORMAT}\nSEARCH must match whole lines of the file exactly, at one place.`,
    params: { path: "File path.", diff: "The blocks." },
  },
  search_files: {
    description: "Search file contents with a regex (ripgrep syntax). Shows matching lines with numbers.",
    params: {
      path: 'Directory ("." for all).',
      regex: "The regex.",
      file_pattern: 'Glob filter, e.g. "*.ts".',
    },
  },
  list_files: {
    description: 'List a directory; directories end with "/".',
    params: { path: 'Directory ("." for the root).', recursive: "Include subdirectories." },
  },
  execute_command: {
    description:
      "Run a shell command in the workspace root; returns exit code and output. It cannot read input: use non-interactive flags.",
    params: { command: "The command.", timeout: "Seconds before it is stopped." },
  },
  ask_followup_question: {
    description: "Ask the user something only they know.",
    params: { question: "The question.", options: "2-5 answers to pick from." },
  },
  attempt_completion: {
    description: "When the task is done and checked, report what you did. Ends the task.",
    params: { result: "What you did.", command: "A command that shows the result." },
  },
};

/**
 * Registers, for every built-in tool handler, its `generic` spec (the handler's own name,
 * description and schema) and, where `COMPACT_WORDING` has it, its `compact` spec (the same
 * schema, shorter wording). Tools listed in `BUILTIN_REQUIREMENTS` get their context rule.
 * Throws when compact wording names a parameter the tool does not have.
 */
export function registerBuiltinSpecs(registry: ToolSetRegistry, tools: readonly ToolHandler[]): void {
  for (const tool of tools) {
    const contextRequirements = BUILTIN_REQUIREMENTS[tool.name];
    const base = { id: tool.name, name: tool.name, ...(contextRequirements ? { contextRequirements } : {}) };
    registry.register({
      ...base,
      family: "generic",
      description: tool.description,
      inputSchema: tool.inputSchema,
    });
    const compact = COMPACT_WORDING[tool.name];
    if (compact) {
      registry.register({
        ...base,
        family: "compact",
        description: compact.description,
        inputSchema: redescribe(tool.inputSchema, compact.params),
      });
    }
  }
}

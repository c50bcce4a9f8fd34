import * as z from "zod/mini";
import type { PromptVariant, ToolContextInfo, ToolSpec } from "../../../src/agent/tool-spec.js";

export const ctx: ToolContextInfo = {
  cwd: "/ws",
  os: "linux 6.1",
  shell: "/bin/zsh",
  mode: "act",
  supportsImages: true,
  browserAvailable: false,
  yolo: false,
  isSubagent: false,
  skills: [],
};

/** Required, optional, enum, array of objects with nested descriptions, an exclusive bound, a template. */
export const sampleSchema = z.object({
  path: z.string().check(z.describe("File path under {{cwd}}.")),
  mode: z.optional(z.enum(["fast", "slow"]).check(z.describe("Speed."))),
  edits: z
    .array(
      z.object({
        line: z.int().check(z.minimum(1), z.describe("Line number.")),
        text: z.string().check(z.describe("New text.")),
      }),
    )
    .check(z.describe("Edits to apply.")),
  limit: z.optional(z.number().check(z.positive(), z.describe("Most results."))),
});

export const sampleSpec: ToolSpec = {
  id: "sample",
  family: "generic",
  name: "sample",
  description: "Sample tool in {{cwd}} on {{os}} with {{shell}}; {{other}} stays.",
  inputSchema: sampleSchema,
};

/** The JSON Schema of `sampleSchema` with templates filled for `ctx`. */
export const sampleJsonSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File path under /ws." },
    mode: { type: "string", enum: ["fast", "slow"], description: "Speed." },
    edits: {
      type: "array",
      description: "Edits to apply.",
      items: {
        type: "object",
        properties: {
          line: { type: "integer", minimum: 1, description: "Line number." },
          text: { type: "string", description: "New text." },
        },
        required: ["line", "text"],
      },
    },
    limit: { type: "number", exclusiveMinimum: 0, description: "Most results." },
  },
  required: ["path", "edits"],
};

export const sampleDescription = "Sample tool in /ws on linux 6.1 with /bin/zsh; {{other}} stays.";

export function spec(id: string, family = "generic", extra: Partial<ToolSpec> = {}): ToolSpec {
  return {
    id,
    family,
    name: id,
    description: `${id} (${family})`,
    inputSchema: z.object({ value: z.string() }),
    ...extra,
  };
}

export function variant(tools: string[], family = "generic", id = "test"): PromptVariant {
  return { id, family, tools, nativeTools: true };
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolHandler } from "../../../src/agent/tool.js";
import { anthropicConverter } from "../../../src/agent/tool-set/converters/anthropic.js";
import { toXmlToolSection } from "../../../src/agent/tool-set/converters/xml.js";
import { specJsonSchema } from "../../../src/agent/tool-set/json-schema.js";
import { createToolSetRegistry, type ToolSetRegistry } from "../../../src/agent/tool-set/registry.js";
import type { ToolContextInfo } from "../../../src/agent/tool-spec.js";
import {
  COMPACT_WORDING,
  registerBuiltinSpecs,
} from "../../../src/coding/tool-specs/register-builtin-specs.js";
import { VARIANTS } from "../../../src/coding/tool-specs/variants.js";
import { createCodingTools } from "../../../src/coding/tools/index.js";
import { createTempWorkspace, type TempWorkspace } from "../temp-workspace.js";

const ctx: ToolContextInfo = {
  cwd: "/ws",
  os: "linux",
  shell: "/bin/bash",
  mode: "act",
  supportsImages: true,
  browserAvailable: false,
  yolo: false,
  isSubagent: false,
  skills: [],
};

let temp: TempWorkspace;
let tools: ToolHandler[];
let registry: ToolSetRegistry;

beforeAll(async () => {
  temp = await createTempWorkspace();
  tools = createCodingTools({ workspace: temp.workspace });
  registry = createToolSetRegistry();
  registerBuiltinSpecs(registry, tools);
});
afterAll(() => temp.remove());

const propertyNames = (schema: Record<string, unknown>) => Object.keys(schema.properties as object);

describe("registerBuiltinSpecs", () => {
  it("registers each handler's generic spec from its name, description and schema", () => {
    for (const tool of tools) {
      const spec = registry.lookup(tool.name, "generic");
      expect(spec).toMatchObject({ id: tool.name, name: tool.name, description: tool.description });
      expect(spec?.inputSchema).toBe(tool.inputSchema);
    }
  });

  it("offers the native variant's registered tools whose requirements hold, in variant order", () => {
    const names = registry.enabledSpecs(VARIANTS.native, ctx).map((s) => s.name);
    // Not offered here: apply_patch, act_mode_respond, new_task (other variants), plan_mode_respond
    // (plan mode only), use_skill (no skills), command_output (no background registry).
    expect(names).toEqual([
      "read_file",
      "write_to_file",
      "replace_in_file",
      "list_files",
      "search_files",
      "list_code_definition_names",
      "execute_command",
      "web_fetch",
      "ask_followup_question",
      "attempt_completion",
    ]);
    expect(names).toEqual(VARIANTS.native.tools.filter((id) => names.includes(id)));
  });

  it("gives the compact variant shorter wording over the same parameters", () => {
    const compact = registry.enabledSpecs(VARIANTS.compact, ctx);
    expect(compact.map((s) => s.name)).toEqual(VARIANTS.compact.tools);
    for (const spec of compact) {
      const generic = registry.lookup(spec.id, "generic")!;
      expect(spec.family).toBe("compact");
      expect(spec.description).toBe(COMPACT_WORDING[spec.id]?.description);
      expect(spec.description.length).toBeLessThan(generic.description.length);
      expect(propertyNames(specJsonSchema(spec))).toEqual(propertyNames(specJsonSchema(generic)));
    }
  });

  it("offers plan_mode_respond in plan mode, and in act mode only where the person can switch modes", () => {
    const offered = (info: ToolContextInfo) =>
      registry.enabledSpecs(VARIANTS.native, info).some((spec) => spec.name === "plan_mode_respond");
    expect(offered({ ...ctx, mode: "plan" })).toBe(true);
    expect(offered(ctx)).toBe(false);
    // An interactive host keeps one tool list in both modes (and the prompt cache with it).
    expect(offered({ ...ctx, modeCanChange: true })).toBe(true);
    expect(offered({ ...ctx, modeCanChange: true, isSubagent: true })).toBe(false);
  });

  it("hides ask_followup_question in YOLO mode", () => {
    const yolo = registry.enabledSpecs(VARIANTS.native, { ...ctx, yolo: true }).map((s) => s.name);
    expect(yolo).not.toContain("ask_followup_question");
    expect(yolo).toContain("attempt_completion");
    expect(registry.convertedTools(VARIANTS.native, { ...ctx, yolo: true }, anthropicConverter)).toHaveLength(
      registry.enabledSpecs(VARIANTS.native, ctx).length - 1,
    );
  });

  it("lists every tool with every parameter in the XML section", () => {
    for (const variant of [VARIANTS.generic, VARIANTS.compact]) {
      const specs = registry.enabledSpecs(variant, ctx);
      const section = toXmlToolSection(specs, ctx);
      for (const spec of specs) {
        expect(section).toContain(`## ${spec.name}\n`);
        expect(section).toContain(`<${spec.name}>\n`);
        const schema = specJsonSchema(spec);
        const required = new Set(schema.required as string[]);
        for (const param of propertyNames(schema)) {
          expect(section).toMatch(
            new RegExp(`\\n- ${param} \\(${required.has(param) ? "required" : "optional"}[,)]`),
          );
        }
      }
    }
  });
});

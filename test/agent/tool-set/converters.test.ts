import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { ToolSpecContextError } from "../../../src/agent/tool-set/converter.js";
import { toAnthropicTools } from "../../../src/agent/tool-set/converters/anthropic.js";
import {
  toGeminiFunctionDeclarations,
  toGeminiSchema,
} from "../../../src/agent/tool-set/converters/gemini.js";
import { toLlmToolDefinitions } from "../../../src/agent/tool-set/converters/llm.js";
import { toOpenAiChatTools } from "../../../src/agent/tool-set/converters/openai-chat.js";
import { toOpenAiResponsesTools } from "../../../src/agent/tool-set/converters/openai-responses.js";
import { toXmlToolSection } from "../../../src/agent/tool-set/converters/xml.js";
import { fillTemplate, specJsonSchema } from "../../../src/agent/tool-set/json-schema.js";
import type { ToolSpec } from "../../../src/agent/tool-spec.js";
import { ctx, sampleDescription, sampleJsonSchema, sampleSpec, spec } from "./fixtures.js";

describe("provider converters", () => {
  it("Anthropic: {name, description, input_schema}", () => {
    expect(toAnthropicTools([sampleSpec], ctx)).toEqual([
      { name: "sample", description: sampleDescription, input_schema: sampleJsonSchema },
    ]);
  });

  it("OpenAI Chat: {type: function, function: {name, description, parameters}}", () => {
    expect(toOpenAiChatTools([sampleSpec], ctx)).toEqual([
      {
        type: "function",
        function: { name: "sample", description: sampleDescription, parameters: sampleJsonSchema },
      },
    ]);
  });

  it("OpenAI Responses: flat function tool with strict false", () => {
    expect(toOpenAiResponsesTools([sampleSpec], ctx)).toEqual([
      {
        type: "function",
        name: "sample",
        description: sampleDescription,
        parameters: sampleJsonSchema,
        strict: false,
      },
    ]);
  });

  it("LlmToolDefinition: {name, description, inputSchema}", () => {
    expect(toLlmToolDefinitions([sampleSpec], ctx)).toEqual([
      { name: "sample", description: sampleDescription, inputSchema: sampleJsonSchema },
    ]);
  });

  it("Gemini: uppercase types, item types, nested descriptions, exclusive bound rewritten", () => {
    expect(toGeminiFunctionDeclarations([sampleSpec], ctx)).toEqual([
      {
        name: "sample",
        description: sampleDescription,
        parameters: {
          type: "OBJECT",
          properties: {
            path: { type: "STRING", description: "File path under /ws." },
            mode: { type: "STRING", enum: ["fast", "slow"], description: "Speed." },
            edits: {
              type: "ARRAY",
              description: "Edits to apply.",
              items: {
                type: "OBJECT",
                properties: {
                  line: { type: "INTEGER", minimum: 1, description: "Line number." },
                  text: { type: "STRING", description: "New text." },
                },
                required: ["line", "text"],
              },
            },
            limit: { type: "NUMBER", minimum: 0, description: "Most results." },
          },
          required: ["path", "edits"],
        },
      },
    ]);
  });

  it("every converter throws on a spec whose contextRequirements fail", () => {
    const hidden: ToolSpec = { ...sampleSpec, contextRequirements: (c) => !c.yolo };
    const yolo = { ...ctx, yolo: true };
    for (const convert of [
      toAnthropicTools,
      toOpenAiChatTools,
      toOpenAiResponsesTools,
      toGeminiFunctionDeclarations,
      toLlmToolDefinitions,
      toXmlToolSection,
    ]) {
      expect(() => convert([hidden], yolo)).toThrow(ToolSpecContextError);
      expect(() => convert([hidden], ctx)).not.toThrow();
    }
    try {
      toAnthropicTools([hidden], yolo);
    } catch (error) {
      expect((error as ToolSpecContextError).code).toBe("tool_spec_context_unmet");
    }
  });
});

describe("JSON Schema of a spec", () => {
  it("fills only the known templates", () => {
    expect(fillTemplate("{{cwd}} {{os}} {{shell}} {{cwd}} {{nope}}", ctx)).toBe(
      "/ws linux 6.1 /bin/zsh /ws {{nope}}",
    );
  });

  it("drops $schema and zod's safe-integer bounds, and is computed once per schema", () => {
    const schema = specJsonSchema({ inputSchema: z.object({ n: z.int() }) });
    expect(schema).toEqual({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] });
    const input = z.object({ s: z.string() });
    expect(specJsonSchema({ inputSchema: input })).toBe(specJsonSchema({ inputSchema: input }));
  });

  it("takes raw JSON Schema, normalising the root and keeping nested descriptions", () => {
    const jsonSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      properties: { q: { type: "object", properties: { k: { type: "string", description: "Key." } } } },
    };
    expect(specJsonSchema({ inputSchema: { jsonSchema } })).toEqual({
      type: "object",
      properties: { q: { type: "object", properties: { k: { type: "string", description: "Key." } } } },
    });
    expect(jsonSchema.$schema).toBeDefined(); // the caller's object is not changed
  });

  it("gives a tool without parameters an empty object schema", () => {
    const none = spec("none", "generic", { inputSchema: z.object({}) });
    expect(toAnthropicTools([none], ctx)[0]?.input_schema).toEqual({ type: "object", properties: {} });
  });
});

describe("Gemini schema conversion", () => {
  it("omits parameters for a tool without any", () => {
    const none = spec("none", "generic", { inputSchema: { jsonSchema: { type: "object" } } });
    expect(toGeminiFunctionDeclarations([none], ctx)).toEqual([
      { name: "none", description: "none (generic)" },
    ]);
  });

  it("rewrites what Gemini does not accept", () => {
    const root = {
      type: "object",
      additionalProperties: false,
      $defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      properties: {
        at: { $ref: "#/$defs/Point", description: "Where." },
        name: { type: ["string", "null"], format: "email", default: "a" },
        kind: { const: "fixed" },
        level: { type: "integer", enum: [1, 2], exclusiveMaximum: 10 },
        either: { anyOf: [{ type: "string" }, { type: "integer" }] },
        maybe: { anyOf: [{ type: "boolean" }, { type: "null" }] },
        tags: { type: "array" },
        shape: { properties: { w: { type: "number" } } },
        self: { $ref: "#/$defs/Missing" },
      },
      required: ["at", "ghost"],
    };
    expect(toGeminiSchema(root, root)).toEqual({
      type: "OBJECT",
      properties: {
        at: { type: "OBJECT", description: "Where.", properties: { x: { type: "NUMBER" } }, required: ["x"] },
        name: { type: "STRING", nullable: true },
        kind: { type: "STRING", enum: ["fixed"] },
        level: { type: "INTEGER", description: "One of: 1, 2.", maximum: 9 },
        either: { anyOf: [{ type: "STRING" }, { type: "INTEGER" }] },
        maybe: { type: "BOOLEAN", nullable: true },
        tags: { type: "ARRAY", items: { type: "STRING" } },
        shape: { type: "OBJECT", properties: { w: { type: "NUMBER" } } },
        self: {},
      },
      required: ["at"],
    });
  });

  it("stops at recursive references", () => {
    const root = {
      type: "object",
      $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } },
      properties: { head: { $ref: "#/$defs/Node" } },
    };
    expect(toGeminiSchema(root, root)).toEqual({
      type: "OBJECT",
      properties: { head: { type: "OBJECT", properties: { next: {} } } },
    });
  });
});

describe("XML tool section", () => {
  it("states the calling rules and describes each tool with its parameters and usage", () => {
    const section = toXmlToolSection([sampleSpec, spec("done")], ctx);
    expect(section).toContain("<tool_name>\n<parameter_name>value</parameter_name>\n</tool_name>");
    expect(section).toContain("Use one tool per message, at the end of the message, then stop");
    expect(section).toContain(
      [
        "## sample",
        sampleDescription,
        "Parameters:",
        "- path (required): File path under /ws.",
        '- mode (optional, one of "fast", "slow"): Speed.',
        "- edits (required, JSON array of objects): Edits to apply.",
        "  - line (required, integer): Line number.",
        "  - text (required): New text.",
        "- limit (optional, number): Most results.",
        "Usage:",
        "<sample>",
        "<path>…</path>",
        "<edits>[{…}]</edits>",
        "</sample>",
      ].join("\n"),
    );
    expect(section).toContain(
      "## done\ndone (generic)\nParameters:\n- value (required)\nUsage:\n<done>\n<value>…</value>\n</done>",
    );
  });

  it("is empty when no tools are offered", () => {
    expect(toXmlToolSection([], ctx)).toBe("");
  });
});

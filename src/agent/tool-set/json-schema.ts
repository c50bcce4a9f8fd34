import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import type { JsonSchemaInput, ToolContextInfo, ToolSpec } from "../tool-spec.js";

/** A JSON Schema object. Schemas handed out by this module are shared: treat them as read-only. */
export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<object, JsonSchema>();
const templated = new WeakMap<JsonSchema, boolean>();

export function isJsonSchemaInput(input: ToolSpec["inputSchema"]): input is JsonSchemaInput {
  return "jsonSchema" in input && !("_zod" in input);
}

/**
 * The JSON Schema of a spec's input: generated from its zod schema, or its raw JSON Schema,
 * normalised so every provider accepts the root (`type: "object"` with `properties`), without
 * `$schema`, and without the safe-integer bounds zod adds to every integer (noise to a model).
 * Descriptions of nested properties are kept. Computed once per schema object and shared.
 */
export function specJsonSchema(spec: Pick<ToolSpec, "inputSchema">): JsonSchema {
  const input = spec.inputSchema;
  const cached = cache.get(input);
  if (cached) return cached;
  const raw = isJsonSchemaInput(input)
    ? input.jsonSchema
    : (z.toJSONSchema(input as $ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema);
  const schema = normaliseRoot(clean(raw) as JsonSchema);
  cache.set(input, schema);
  return schema;
}

/**
 * The spec's JSON Schema with `{{cwd}}`, `{{os}}` and `{{shell}}` filled in its descriptions.
 * Returns the shared schema itself when it has no templates (the usual case).
 */
export function filledJsonSchema(spec: Pick<ToolSpec, "inputSchema">, ctx: ToolContextInfo): JsonSchema {
  const schema = specJsonSchema(spec);
  let hasTemplates = templated.get(schema);
  if (hasTemplates === undefined) {
    hasTemplates = JSON.stringify(schema).includes("{{");
    templated.set(schema, hasTemplates);
  }
  return hasTemplates ? (fillDescriptions(schema, ctx) as JsonSchema) : schema;
}

const TEMPLATE = /\{\{(cwd|os|shell)\}\}/g;

/** Fills `{{cwd}}`, `{{os}}` and `{{shell}}` from `ctx`; other `{{...}}` are left as they are. */
export function fillTemplate(text: string, ctx: ToolContextInfo): string {
  if (!text.includes("{{")) return text;
  return text.replace(TEMPLATE, (_, key: "cwd" | "os" | "shell") => ctx[key]);
}

function fillDescriptions(value: unknown, ctx: ToolContextInfo): unknown {
  if (Array.isArray(value)) return value.map((item) => fillDescriptions(item, ctx));
  if (value === null || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === "description" && typeof child === "string"
        ? fillTemplate(child, ctx)
        : fillDescriptions(child, ctx);
  }
  return out;
}

const SAFE_INTEGER_BOUND: Record<string, number> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

/** A deep copy without `$schema` and without zod's implicit safe-integer bounds. */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$schema") continue;
    if (SAFE_INTEGER_BOUND[key] === child) continue;
    out[key] = clean(child);
  }
  return out;
}

/** Providers require an object root with `properties`; a root of another type is not offered (see mcpToolSpecs). */
function normaliseRoot(schema: JsonSchema): JsonSchema {
  const { type: _type, properties, ...rest } = schema;
  return { type: "object", properties: isRecord(properties) ? properties : {}, ...rest };
}

export function isRecord(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

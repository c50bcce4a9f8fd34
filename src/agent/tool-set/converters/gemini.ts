import type { ToolContextInfo, ToolSpec } from "../../tool-spec.js";
import { offeredDescription, type ToolSetConverter } from "../converter.js";
import { filledJsonSchema, isRecord, type JsonSchema } from "../json-schema.js";

export type GeminiType = "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT";

/** Gemini's schema: the OpenAPI 3.0 subset its `functionDeclarations` accept. */
export interface GeminiSchema {
  type?: GeminiType;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  format?: string;
  items?: GeminiSchema;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  anyOf?: GeminiSchema[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/** One entry of Gemini's `tools[].functionDeclarations`. `parameters` is absent for a tool without any. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: GeminiSchema;
}

/**
 * Gemini function declarations. Unlike Cline, array `items`, integer types and nested
 * descriptions are kept; local `$ref`s are inlined; keys Gemini rejects (`$schema`,
 * `additionalProperties`, `default`, `const`, exclusive bounds, unknown formats) are dropped or
 * rewritten into supported ones.
 */
export function toGeminiFunctionDeclarations(
  specs: readonly ToolSpec[],
  ctx: ToolContextInfo,
): GeminiFunctionDeclaration[] {
  return specs.map((spec) => {
    const description = offeredDescription(spec, ctx);
    const root = filledJsonSchema(spec, ctx);
    const parameters = toGeminiSchema(root, root);
    const hasParameters = Object.keys(parameters.properties ?? {}).length > 0;
    // Gemini rejects an OBJECT without properties, so a tool without parameters declares none.
    return hasParameters ? { name: spec.name, description, parameters } : { name: spec.name, description };
  });
}

export const geminiConverter: ToolSetConverter<GeminiFunctionDeclaration[]> = {
  id: "gemini",
  convert: toGeminiFunctionDeclarations,
};

const TYPES: Record<string, GeminiType> = {
  string: "STRING",
  number: "NUMBER",
  integer: "INTEGER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
};

const FORMATS: Partial<Record<GeminiType, readonly string[]>> = {
  STRING: ["enum", "date-time"],
  NUMBER: ["float", "double"],
  INTEGER: ["int32", "int64"],
};

const COPIED = ["minItems", "maxItems", "minLength", "maxLength", "pattern", "minimum", "maximum"] as const;

const MAX_DEPTH = 12;

/** Converts one JSON Schema node; `root` holds the `$defs` that `$ref`s point into. */
export function toGeminiSchema(
  node: JsonSchema,
  root: JsonSchema,
  seen: readonly string[] = [],
): GeminiSchema {
  const ref = typeof node.$ref === "string" ? node.$ref : undefined;
  if (ref !== undefined) {
    const target = resolveRef(ref, root);
    if (target === undefined || seen.includes(ref) || seen.length >= MAX_DEPTH) return describedOnly(node);
    return toGeminiSchema({ ...target, ...withoutKey(node, "$ref") }, root, [...seen, ref]);
  }
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) return fromAlternatives(node, alternatives.filter(isRecord), root, seen);
  if (Array.isArray(node.allOf)) return toGeminiSchema(mergeAll(node), root, seen);
  if (Array.isArray(node.type)) return fromTypeList(node, node.type, root, seen);

  const type = geminiType(node);
  const out: GeminiSchema = type === undefined ? {} : { type };
  if (typeof node.description === "string" && node.description !== "") out.description = node.description;
  if (node.nullable === true || node.type === "null") out.nullable = true;
  addEnum(out, node);
  if (type !== undefined && typeof node.format === "string" && FORMATS[type]?.includes(node.format))
    out.format = node.format;
  for (const key of COPIED)
    if (typeof node[key] === "number" || typeof node[key] === "string") copy(out, key, node[key]);
  addExclusiveBounds(out, node, type);
  if (type === "ARRAY")
    out.items = isRecord(node.items) ? toGeminiSchema(node.items, root, seen) : { type: "STRING" };
  if (type === "OBJECT") addProperties(out, node, root, seen);
  return out;
}

function geminiType(node: JsonSchema): GeminiType | undefined {
  if (typeof node.type === "string") return TYPES[node.type] ?? (node.type === "null" ? "STRING" : undefined);
  if (isRecord(node.properties)) return "OBJECT";
  if (isRecord(node.items)) return "ARRAY";
  if (Array.isArray(node.enum) || node.const !== undefined) return "STRING";
  return undefined;
}

/** Gemini enums are strings; a non-string enum moves into the description instead. */
function addEnum(out: GeminiSchema, node: JsonSchema): void {
  const values = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : undefined;
  if (values === undefined) return;
  if (out.type === "STRING" && values.every((v) => typeof v === "string")) {
    out.enum = values as string[];
    return;
  }
  const listed = `One of: ${values.map((v) => JSON.stringify(v)).join(", ")}.`;
  out.description = out.description ? `${out.description} ${listed}` : listed;
}

function addExclusiveBounds(out: GeminiSchema, node: JsonSchema, type: GeminiType | undefined): void {
  const step = type === "INTEGER" ? 1 : 0;
  if (typeof node.exclusiveMinimum === "number") {
    const min = node.exclusiveMinimum + step;
    out.minimum = out.minimum === undefined ? min : Math.max(out.minimum, min);
  }
  if (typeof node.exclusiveMaximum === "number") {
    const max = node.exclusiveMaximum - step;
    out.maximum = out.maximum === undefined ? max : Math.min(out.maximum, max);
  }
}

function addProperties(out: GeminiSchema, node: JsonSchema, root: JsonSchema, seen: readonly string[]): void {
  const properties = isRecord(node.properties) ? node.properties : {};
  const converted: Record<string, GeminiSchema> = {};
  for (const [name, child] of Object.entries(properties)) {
    if (isRecord(child)) converted[name] = toGeminiSchema(child, root, seen);
  }
  out.properties = converted;
  const required = Array.isArray(node.required)
    ? node.required.filter((n) => typeof n === "string" && n in converted)
    : [];
  if (required.length > 0) out.required = required as string[];
}

/** `anyOf`/`oneOf`: null alternatives become `nullable`; a single remaining one is inlined. */
function fromAlternatives(
  node: JsonSchema,
  alternatives: JsonSchema[],
  root: JsonSchema,
  seen: readonly string[],
): GeminiSchema {
  const rest = withoutKey(withoutKey(node, "anyOf"), "oneOf");
  const nonNull = alternatives.filter((a) => a.type !== "null");
  const nullable = nonNull.length < alternatives.length;
  const merged: GeminiSchema =
    nonNull.length === 1
      ? toGeminiSchema({ ...nonNull[0], ...rest }, root, seen)
      : { ...toGeminiSchema(rest, root, seen), anyOf: nonNull.map((a) => toGeminiSchema(a, root, seen)) };
  if (nullable) merged.nullable = true;
  return merged;
}

/** `type: ["string", "null"]` and the like. */
function fromTypeList(
  node: JsonSchema,
  types: unknown[],
  root: JsonSchema,
  seen: readonly string[],
): GeminiSchema {
  const nonNull = types.filter((t) => t !== "null");
  const alternatives = nonNull.map((type) => ({ ...node, type }));
  if (nonNull.length < types.length) alternatives.push({ type: "null" });
  return fromAlternatives(withoutKey(node, "type"), alternatives, root, seen);
}

/** `allOf` merged shallowly: properties and required lists are joined, other keys overwrite. */
function mergeAll(node: JsonSchema): JsonSchema {
  const parts = (node.allOf as unknown[]).filter(isRecord);
  const merged: JsonSchema = withoutKey(node, "allOf");
  const properties: JsonSchema = isRecord(node.properties) ? { ...node.properties } : {};
  const required = new Set<unknown>(Array.isArray(node.required) ? node.required : []);
  for (const part of parts) {
    Object.assign(merged, withoutKey(withoutKey(part, "properties"), "required"));
    if (isRecord(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) for (const name of part.required) required.add(name);
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1]!];
  const target = isRecord(defs) ? defs[decodeURIComponent(match[2]!)] : undefined;
  return isRecord(target) ? target : undefined;
}

/** What is left of an unresolvable or recursive `$ref`: its description, if any. */
function describedOnly(node: JsonSchema): GeminiSchema {
  return typeof node.description === "string" ? { description: node.description } : {};
}

function withoutKey(node: JsonSchema, key: string): JsonSchema {
  const { [key]: _dropped, ...rest } = node;
  return rest;
}

function copy(out: GeminiSchema, key: (typeof COPIED)[number], value: unknown): void {
  (out as Record<string, unknown>)[key] = value;
}

import type { ToolContextInfo, ToolSpec } from "../../tool-spec.js";
import { offeredDescription, type ToolSetConverter } from "../converter.js";
import { filledJsonSchema, isRecord, type JsonSchema } from "../json-schema.js";

/** How calls are written in the XML text protocol; the streaming parser reads exactly this. */
const RULES = `# Tools
Use a tool by writing its name and parameters as XML tags:
<tool_name>
<parameter_name>value</parameter_name>
</tool_name>
Values are plain text, not escaped; arrays and objects are JSON. Use one tool per message, at the end of the message, then stop: its result comes in the next message.`;

/**
 * The tools section of the system prompt for models without native tool calling: the calling
 * rules, then per tool its description, parameters (required or optional, type when not
 * text, description; nested properties indented) and a usage example with the required
 * parameters. Empty when no tools are offered.
 */
export function toXmlToolSection(specs: readonly ToolSpec[], ctx: ToolContextInfo): string {
  if (specs.length === 0) return "";
  return [RULES, ...specs.map((spec) => renderTool(spec, ctx))].join("\n\n");
}

export const xmlConverter: ToolSetConverter<string> = { id: "xml", convert: toXmlToolSection };

function renderTool(spec: ToolSpec, ctx: ToolContextInfo): string {
  const description = offeredDescription(spec, ctx);
  const schema = filledJsonSchema(spec, ctx);
  const params = renderProperties(schema, 0);
  const required = requiredNames(schema).filter((name) => isRecord(propertiesOf(schema)[name]));
  const usage = required.map(
    (name) => `<${name}>${placeholder(propertiesOf(schema)[name] as JsonSchema)}</${name}>`,
  );
  return [
    `## ${spec.name}`,
    description,
    ...(params.length > 0 ? ["Parameters:", ...params] : []),
    "Usage:",
    `<${spec.name}>`,
    ...usage,
    `</${spec.name}>`,
  ].join("\n");
}

const MAX_NESTING = 3;

function renderProperties(schema: JsonSchema, depth: number): string[] {
  const required = new Set(requiredNames(schema));
  const lines: string[] = [];
  for (const [name, child] of Object.entries(propertiesOf(schema))) {
    if (!isRecord(child)) continue;
    const type = typeLabel(child);
    const flags = [required.has(name) ? "required" : "optional", ...(type ? [type] : [])].join(", ");
    const description = typeof child.description === "string" ? `: ${child.description}` : "";
    lines.push(`${"  ".repeat(depth)}- ${name} (${flags})${description}`);
    const nested = objectShape(child);
    if (nested && depth + 1 < MAX_NESTING) lines.push(...renderProperties(nested, depth + 1));
  }
  return lines;
}

/** The object whose properties a parameter contains: itself, or its array items. */
function objectShape(schema: JsonSchema): JsonSchema | undefined {
  if (Object.keys(propertiesOf(schema)).length > 0) return schema;
  if (isRecord(schema.items) && Object.keys(propertiesOf(schema.items)).length > 0) return schema.items;
  return undefined;
}

/** A short type for the parameter list; undefined for plain text. */
export function typeLabel(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if (schema.const !== undefined) return `exactly ${JSON.stringify(schema.const)}`;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) {
    const labels = alternatives.filter(isRecord).map((a) => typeLabel(a) ?? "text");
    return labels.join(" or ");
  }
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null")[0] : schema.type;
  switch (type) {
    case "array":
      return `JSON array of ${isRecord(schema.items) ? itemsLabel(schema.items) : "values"}`;
    case "object":
      return "JSON object";
    case "integer":
    case "number":
    case "boolean":
      return type;
    case undefined:
      return isRecord(schema.properties) ? "JSON object" : undefined;
    default:
      return undefined;
  }
}

const PLURALS: Record<string, string> = {
  string: "strings",
  integer: "integers",
  number: "numbers",
  boolean: "booleans",
  object: "objects",
  array: "arrays",
};

function itemsLabel(items: JsonSchema): string {
  const type = typeof items.type === "string" ? items.type : isRecord(items.properties) ? "object" : "";
  const noun = PLURALS[type] ?? "values";
  return Array.isArray(items.enum) ? `${noun}, each ${typeLabel(items)}` : noun;
}

function placeholder(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "array") return isRecord(schema.items) && schema.items.type === "object" ? "[{…}]" : '["…"]';
  if (type === "object") return "{…}";
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  return "…";
}

function propertiesOf(schema: JsonSchema): JsonSchema {
  return isRecord(schema.properties) ? schema.properties : {};
}

function requiredNames(schema: JsonSchema): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((n): n is string => typeof n === "string")
    : [];
}

/**
 * XML parameter values are strings; a tool's input schema may want numbers, booleans,
 * arrays or objects. Coercion converts what is unambiguous and otherwise leaves the string,
 * so the tool's validation reports the problem to the model in its own words.
 */

type Schema = Record<string, unknown>;
type JsonType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "null";

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const isRecord = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The JSON types a schema accepts, from `type` (string or list) and `anyOf`/`oneOf` members. */
function typesOf(schema: Schema): Set<JsonType> {
  const types = new Set<JsonType>();
  const add = (type: unknown) => {
    if (typeof type === "string") types.add(type as JsonType);
    else if (Array.isArray(type)) for (const t of type) add(t);
  };
  add(schema.type);
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = schema[key];
    if (!Array.isArray(members)) continue;
    for (const member of members.filter(isRecord)) for (const type of typesOf(member)) types.add(type);
  }
  return types;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON: the caller tries the next reading
  }
}

/** Array items, each from one non-empty line (trimmed). */
const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

function coerceArray(raw: string, schema: Schema): unknown {
  const trimmed = raw.trim();
  if (trimmed.startsWith("[")) {
    const parsed = parseJson(trimmed);
    if (Array.isArray(parsed)) return parsed;
  }
  const items = isRecord(schema.items) ? typesOf(schema.items) : new Set<JsonType>();
  return items.size === 1 && items.has("string") ? lines(raw) : undefined;
}

function coerceAs(type: JsonType, raw: string, schema: Schema): unknown {
  const trimmed = raw.trim();
  switch (type) {
    case "integer": {
      const value = NUMBER.test(trimmed) ? Number(trimmed) : Number.NaN;
      return Number.isSafeInteger(value) ? value : undefined;
    }
    case "number": {
      const value = NUMBER.test(trimmed) ? Number(trimmed) : Number.NaN;
      return Number.isFinite(value) ? value : undefined;
    }
    case "boolean": {
      const lower = trimmed.toLowerCase();
      return lower === "true" ? true : lower === "false" ? false : undefined;
    }
    case "array":
      return coerceArray(raw, schema);
    case "object": {
      const parsed = trimmed.startsWith("{") ? parseJson(trimmed) : undefined;
      return isRecord(parsed) ? parsed : undefined;
    }
    case "null":
      return trimmed === "null" ? null : undefined;
    default:
      return undefined;
  }
}

const ORDER: readonly JsonType[] = ["integer", "number", "boolean", "array", "object", "null"];

/** Converts one value for its property schema; the raw string when nothing fits. */
export function coerceXmlValue(raw: string, schema: Schema): unknown {
  const types = typesOf(schema);
  if (types.has("string") || types.size === 0) return raw;
  for (const type of ORDER) {
    if (!types.has(type)) continue;
    const value = coerceAs(type, raw, schema);
    if (value !== undefined) return value;
  }
  return raw;
}

/**
 * Converts XML parameter strings per the tool's JSON Schema (`properties`):
 * - a property that accepts strings, or has no type, keeps the string;
 * - integer / number: a trimmed decimal number (`" 10 "`, `-1.5e3`); integers must be whole;
 * - boolean: `true` / `false`, any case, trimmed;
 * - array: a JSON array; for arrays of strings, otherwise one item per non-empty line;
 * - object: a JSON object; null: `null`;
 * - when a property allows several types, they are tried in the order above.
 * A value that fits none stays a string (validation then reports it). Parameters the schema
 * does not know pass through as strings; missing parameters stay missing.
 */
export function coerceXmlParams(
  params: Record<string, string>,
  jsonSchema: Record<string, unknown>,
): Record<string, unknown> {
  const properties = isRecord(jsonSchema.properties) ? jsonSchema.properties : {};
  return Object.fromEntries(
    Object.entries(params).map(([name, raw]) => {
      const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
      return [name, isRecord(schema) ? coerceXmlValue(raw, schema) : raw];
    }),
  );
}

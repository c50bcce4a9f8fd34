/**
 * Whether a replayed request has the same shape as the recorded one. Two runs of the same
 * conversation differ in free text (the system prompt's date and working directory, tool output),
 * in generated ids and in numbers such as token limits, but not in structure. The rule:
 * - objects have the same keys (order aside), arrays the same length, values the same JSON kind;
 * - booleans are equal (`stream`, `strict`, `parallel_tool_calls`);
 * - strings are equal under the keys in IDENTITY_KEYS (model, role, block types, tool names,
 *   media types); every other string, and every number, may differ.
 * A different conversation changes the number of messages, a role, a block's type or a tool
 * name, and is caught; the same conversation with other wording is not.
 */

/** Keys whose string values identify structure rather than carry text. */
const IDENTITY_KEYS = new Set([
  "model",
  "role",
  "type",
  "name",
  "tool_choice",
  "effort",
  "media_type",
  "mimeType",
  "format",
]);

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function pathTo(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

function objectDifference(
  actual: Record<string, unknown>,
  recorded: Record<string, unknown>,
  path: string,
): string | undefined {
  for (const key of Object.keys(recorded)) {
    if (!(key in actual)) return `${pathTo(path, key)} is missing, the recording has it`;
    const difference = valueDifference(actual[key], recorded[key], pathTo(path, key), key);
    if (difference) return difference;
  }
  const extra = Object.keys(actual).find((key) => !(key in recorded));
  return extra === undefined ? undefined : `${pathTo(path, extra)} is not in the recording`;
}

function valueDifference(actual: unknown, recorded: unknown, path: string, key?: string): string | undefined {
  if (kindOf(actual) !== kindOf(recorded)) {
    return `${path} is ${kindOf(actual)}, the recording has ${kindOf(recorded)}`;
  }
  if (Array.isArray(actual) && Array.isArray(recorded)) {
    if (actual.length !== recorded.length) {
      return `${path} has ${actual.length} items, the recording has ${recorded.length}`;
    }
    for (const [index, item] of actual.entries()) {
      const difference = valueDifference(item, recorded[index], pathTo(path, index));
      if (difference) return difference;
    }
    return undefined;
  }
  if (typeof actual === "object" && actual !== null) {
    return objectDifference(actual as Record<string, unknown>, recorded as Record<string, unknown>, path);
  }
  const compared =
    typeof actual === "boolean" || (typeof actual === "string" && IDENTITY_KEYS.has(key ?? ""));
  if (compared && actual !== recorded) {
    return `${path} is ${JSON.stringify(actual)}, the recording has ${JSON.stringify(recorded)}`;
  }
  return undefined;
}

/**
 * The first place where `actual` departs in shape from `recorded`, described with its JSON path
 * under `root` (e.g. `body.messages has 5 items, the recording has 4`), or undefined.
 */
export function shapeDifference(actual: unknown, recorded: unknown, root: string): string | undefined {
  return valueDifference(actual, recorded, root);
}

/** The outcome of parsing a tool call's streamed argument text. */
export type ParsedToolArguments =
  | { input: unknown; parseError?: undefined }
  | { input: undefined; parseError: string };

const PREVIEW_LENGTH = 200;

function preview(raw: string): string {
  return raw.length > PREVIEW_LENGTH ? `${raw.slice(0, PREVIEW_LENGTH)}…` : raw;
}

/**
 * Parses the accumulated JSON arguments of a tool call. Empty text means no arguments (`{}`).
 * Anything but a JSON object yields a `parseError` the model can act on. Never throws.
 */
export function parseToolArguments(raw: string): ParsedToolArguments {
  if (raw.trim() === "") return { input: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      input: undefined,
      parseError: `The tool call arguments are not valid JSON (${reason}). Received: ${preview(raw)}`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return {
      input: undefined,
      parseError: `The tool call arguments must be a JSON object, but got ${kind}. Received: ${preview(raw)}`,
    };
  }
  return { input: value };
}

/** Whether a value can be sent back as a tool call's input object. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A string that is equal for structurally equal JSON-like values, whatever their key order
 * (object keys are sorted; array order counts). Functions and undefined properties are left out.
 */
export function stableKey(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "";
  if (Array.isArray(value)) return `[${value.map(stableKey).join(",")}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const child = record[key];
    if (child === undefined || typeof child === "function") continue;
    parts.push(`${JSON.stringify(key)}:${stableKey(child)}`);
  }
  return `{${parts.join(",")}}`;
}

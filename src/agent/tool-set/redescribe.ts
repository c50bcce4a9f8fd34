import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";

/**
 * The same object schema (same fields, types, checks and unknown-key policy, so the same
 * validation) with other descriptions for the named fields: how a family with different
 * wording (e.g. `compact`) reuses a tool's one schema declaration. Throws when `schema` is not
 * an object schema or a named field does not exist (a programming error).
 */
export function redescribe(schema: $ZodType, descriptions: Readonly<Record<string, string>>): $ZodType {
  const def = schema._zod.def as { type: string; shape?: Record<string, z.ZodMiniType> };
  if (def.type !== "object" || def.shape === undefined) throw new Error("redescribe: not an object schema");
  const shape: Record<string, z.ZodMiniType> = { ...def.shape };
  for (const [name, description] of Object.entries(descriptions)) {
    const field = shape[name];
    if (field === undefined) throw new Error(`redescribe: no field "${name}"`);
    shape[name] = field.check(z.describe(description));
  }
  return (schema as z.ZodMiniType).clone({ ...def, shape } as never);
}

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { specJsonSchema } from "../../../src/agent/tool-set/json-schema.js";
import { redescribe } from "../../../src/agent/tool-set/redescribe.js";

describe("redescribe", () => {
  const schema = z.strictObject({
    path: z.string().check(z.describe("A long description of the path.")),
    count: z.optional(z.int().check(z.minimum(1), z.describe("A long description of the count."))),
  });

  it("changes descriptions and keeps types, checks and the unknown-key policy", () => {
    const short = redescribe(schema, { path: "Path.", count: "Count." });
    expect(specJsonSchema({ inputSchema: short })).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "Path." },
        count: { type: "integer", minimum: 1, description: "Count." },
      },
      required: ["path"],
      additionalProperties: false,
    });
    expect(z.safeParse(short, { path: "a", count: 0 }).success).toBe(false);
    expect(z.safeParse(short, { path: "a", extra: 1 }).success).toBe(false);
    expect(z.safeParse(short, { path: "a", count: 2 }).success).toBe(true);
    expect(specJsonSchema({ inputSchema: schema }).properties).toMatchObject({
      path: { description: "A long description of the path." },
    });
  });

  it("throws for an unknown field or a schema that is not an object", () => {
    expect(() => redescribe(schema, { nope: "x" })).toThrow(/no field "nope"/);
    expect(() => redescribe(z.string(), {})).toThrow(/not an object schema/);
  });
});

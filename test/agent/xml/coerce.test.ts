import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { coerceXmlParams } from "../../../src/agent/xml/index.js";

/** JSON Schema generated from zod, as tool definitions produce it. */
const jsonSchema = (schema: z.ZodMiniType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;

const READ_FILE = jsonSchema(
  z.object({
    path: z.string(),
    start_line: z.optional(z.int()),
    end_line: z.optional(z.int()),
  }),
);

describe("coerceXmlParams", () => {
  it("converts integers and keeps strings", () => {
    expect(coerceXmlParams({ path: " a.ts ", start_line: " 10\n", end_line: "+20" }, READ_FILE)).toEqual({
      path: " a.ts ",
      start_line: 10,
      end_line: 20,
    });
  });

  it("leaves values that are not whole numbers as strings, for validation to report", () => {
    expect(coerceXmlParams({ start_line: "ten", end_line: "1.5" }, READ_FILE)).toEqual({
      start_line: "ten",
      end_line: "1.5",
    });
    expect(coerceXmlParams({ start_line: "", end_line: "0x10" }, READ_FILE)).toEqual({
      start_line: "",
      end_line: "0x10",
    });
    expect(coerceXmlParams({ start_line: "1e400" }, READ_FILE)).toEqual({ start_line: "1e400" });
  });

  it("accepts whole numbers written with a fraction or exponent as integers", () => {
    expect(coerceXmlParams({ start_line: "10.0", end_line: "1e2" }, READ_FILE)).toEqual({
      start_line: 10,
      end_line: 100,
    });
  });

  it("converts numbers", () => {
    const schema = jsonSchema(z.object({ n: z.number() }));
    expect(coerceXmlParams({ n: "-1.5e3" }, schema)).toEqual({ n: -1500 });
    expect(coerceXmlParams({ n: ".5" }, schema)).toEqual({ n: 0.5 });
    expect(coerceXmlParams({ n: "Infinity" }, schema)).toEqual({ n: "Infinity" });
    expect(coerceXmlParams({ n: "1 2" }, schema)).toEqual({ n: "1 2" });
  });

  it("converts booleans in any case", () => {
    const schema = jsonSchema(z.object({ a: z.boolean(), b: z.boolean(), c: z.boolean() }));
    expect(coerceXmlParams({ a: "true", b: " FALSE\n", c: "yes" }, schema)).toEqual({
      a: true,
      b: false,
      c: "yes",
    });
  });

  it("reads arrays of strings from JSON or one item per non-empty line", () => {
    const schema = jsonSchema(z.object({ options: z.optional(z.array(z.string())) }));
    expect(coerceXmlParams({ options: '["Yes", "No"]' }, schema)).toEqual({ options: ["Yes", "No"] });
    expect(coerceXmlParams({ options: "\n  Yes \r\n\nNo, later\n" }, schema)).toEqual({
      options: ["Yes", "No, later"],
    });
    expect(coerceXmlParams({ options: "[WIP] first\nsecond" }, schema)).toEqual({
      options: ["[WIP] first", "second"],
    });
  });

  it("reads other arrays only from JSON", () => {
    const schema = jsonSchema(z.object({ lines: z.array(z.int()) }));
    expect(coerceXmlParams({ lines: "[1, 2]" }, schema)).toEqual({ lines: [1, 2] });
    expect(coerceXmlParams({ lines: "1\n2" }, schema)).toEqual({ lines: "1\n2" });
  });

  it("reads objects from JSON", () => {
    const schema = jsonSchema(z.object({ args: z.record(z.string(), z.unknown()) }));
    expect(coerceXmlParams({ args: ' {"a": 1} ' }, schema)).toEqual({ args: { a: 1 } });
    expect(coerceXmlParams({ args: "[1]" }, schema)).toEqual({ args: "[1]" });
    expect(coerceXmlParams({ args: "{oops" }, schema)).toEqual({ args: "{oops" });
  });

  it("handles nullable and multi-type properties", () => {
    const schema = jsonSchema(
      z.object({ a: z.nullable(z.int()), b: z.nullable(z.int()), c: z.union([z.string(), z.number()]) }),
    );
    expect(coerceXmlParams({ a: "3", b: "null", c: "4" }, schema)).toEqual({ a: 3, b: null, c: "4" });
  });

  it("passes unknown parameters through and leaves missing ones missing", () => {
    expect(coerceXmlParams({ path: "a", extra: "5" }, READ_FILE)).toEqual({ path: "a", extra: "5" });
    expect(coerceXmlParams({}, READ_FILE)).toEqual({});
    expect(coerceXmlParams({ x: "1" }, {})).toEqual({ x: "1" });
  });
});

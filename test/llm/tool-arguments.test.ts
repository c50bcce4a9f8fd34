import { describe, expect, it } from "vitest";
import { redactSecrets, toErrorEvent } from "../../src/llm/stream-error.js";
import { parseToolArguments } from "../../src/llm/tool-arguments.js";

describe("parseToolArguments", () => {
  it("parses a JSON object", () => {
    expect(parseToolArguments('{"path":"a.ts","n":2}')).toEqual({ input: { path: "a.ts", n: 2 } });
  });

  it("treats empty or blank text as no arguments", () => {
    expect(parseToolArguments("")).toEqual({ input: {} });
    expect(parseToolArguments("  \n")).toEqual({ input: {} });
  });

  it("explains malformed JSON and quotes what arrived", () => {
    const result = parseToolArguments('{"path": "a.ts"');
    expect(result.input).toBeUndefined();
    expect(result.parseError).toMatch(
      /^The tool call arguments are not valid JSON \(.+\)\. Received: \{"path": "a.ts"$/,
    );
  });

  it("rejects JSON that is not an object", () => {
    expect(parseToolArguments("[1,2]").parseError).toContain("must be a JSON object, but got an array");
    expect(parseToolArguments("null").parseError).toContain("but got null");
    expect(parseToolArguments('"x"').parseError).toContain("but got a string");
  });

  it("shortens a long malformed text in the message", () => {
    const raw = `{"content": "${"x".repeat(1000)}`;
    expect(parseToolArguments(raw).parseError!.length).toBeLessThan(400);
  });
});

describe("error events", () => {
  it("redacts every occurrence of a secret", () => {
    expect(redactSecrets("key sk-1234 and again sk-1234", ["sk-1234"])).toBe(
      "key [redacted] and again [redacted]",
    );
  });

  it("does not treat an error without status or provider type as an HTTP error", () => {
    const event = toErrorEvent(new Error("socket hang up", { cause: new Error("ECONNRESET") }), "local", []);
    expect(event).toEqual({
      type: "error",
      message: "local connection failed: socket hang up: ECONNRESET",
      retryable: true,
    });
  });
});

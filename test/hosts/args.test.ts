import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../src/hosts/cli/args.js";

describe("parseCliArgs", () => {
  it("reads print mode, the prompt and the model flags", () => {
    const args = parseCliArgs(
      [
        "-p",
        "fix",
        "it",
        "--provider",
        "openai",
        "--model",
        "m",
        "--base-url",
        "http://x/v1",
        "--output-format",
        "json",
        "-y",
        "--allow",
        "a",
        "--allow",
        "b",
      ],
      "/w",
    );
    expect(args).toMatchObject({
      command: "run",
      print: true,
      prompt: "fix it",
      provider: "openai",
      model: "m",
      baseUrl: "http://x/v1",
      outputFormat: "json",
      yes: true,
      allow: ["a", "b"],
      cwd: "/w",
    });
  });

  it("recognises demo, version and help", () => {
    expect(parseCliArgs(["demo"], "/w").command).toBe("demo");
    expect(parseCliArgs(["--version"], "/w").command).toBe("version");
    expect(parseCliArgs(["-h"], "/w").command).toBe("help");
  });

  it("rejects unknown flags and bad values with usage errors", () => {
    expect(() => parseCliArgs(["--frobnicate"], "/w")).toThrow(UsageError);
    expect(() => parseCliArgs(["--output-format", "xml"], "/w")).toThrow(/text, json or stream-json/);
    expect(() => parseCliArgs(["--command-timeout", "0"], "/w")).toThrow(/positive/);
  });
});

describe("retry, budget and traffic flags", () => {
  it("parse numbers and files", () => {
    const args = parseCliArgs(
      [
        "--max-retries",
        "0",
        "--stream-idle-timeout",
        "1.5",
        "--max-turns",
        "40",
        "--budget-tokens",
        "200000",
        "--budget-usd",
        "2.5",
        "--record",
        "run.jsonl",
      ],
      "/w",
    );
    expect(args).toMatchObject({
      maxRetries: 0,
      streamIdleTimeoutSeconds: 1.5,
      maxTurns: 40,
      budgetTokens: 200_000,
      budgetUsd: 2.5,
      record: "run.jsonl",
    });
  });

  it("reject bad values and record with replay together", () => {
    expect(() => parseCliArgs(["--max-retries=-1"], "/w")).toThrow(/--max-retries must be a whole number/);
    expect(() => parseCliArgs(["--max-turns", "2.5"], "/w")).toThrow(/whole number/);
    expect(() => parseCliArgs(["--budget-usd", "free"], "/w")).toThrow(/--budget-usd must be a number/);
    expect(() => parseCliArgs(["--record", "a", "--replay", "b"], "/w")).toThrow(/cannot be used together/);
  });
});

/**
 * The XML text protocol end to end: with `--tool-protocol xml` the request carries no native
 * tools, the system prompt describes them as XML, the model's XML tool calls are parsed from
 * the streamed text, and results go back as text.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptedTurn } from "../support/fake-model-server.js";
import { closeScenarios, type Format, resultOf, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const XML_SCRIPT: ScriptedTurn[] = [
  { text: "Running the tests first.\n<execute_command>\n<command>node --test</command>\n</execute_command>" },
  { text: "<read_file>\n<path>src/math.js</path>\n<start_line>1</start_line>\n</read_file>" },
  {
    text: [
      "Dividing by the wrong count.",
      "<replace_in_file>",
      "<path>src/math.js</path>",
      "<diff>",
      "------- SEARCH",
      "  return total / (values.length - 1);",
      "=======",
      "  return total / values.length;",
      "+++++++ REPLACE",
      "</diff>",
      "</replace_in_file>",
    ].join("\n"),
  },
  {
    text: "<attempt_completion>\n<result>Fixed average: it divided by length - 1.</result>\n</attempt_completion>",
  },
];

/** The text of every user message of a request, in order. */
function userTexts(_format: Format, body: any): string[] {
  return body.messages
    .filter((m: any) => m.role === "user")
    .map((m: any) =>
      typeof m.content === "string" ? m.content : m.content.map((b: any) => b.text ?? "").join("\n"),
    );
}

describe.each<Format>(["anthropic", "openai"])("the XML tool protocol over %s", (format) => {
  it("parses tool calls from text, runs them and sends results back as text", async () => {
    const s = await startScenario(format, XML_SCRIPT);
    const run = await s.run("Fix the failing test.", [
      "--yes",
      "--tool-protocol",
      "xml",
      "--output-format",
      "json",
    ]);

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({
      status: "completed",
      result: "Fixed average: it divided by length - 1.",
    });
    expect(readFileSync(join(s.repo, "src/math.js"), "utf8")).toContain("return total / values.length;");
    execFileSync(process.execPath, ["--test"], { cwd: s.repo, stdio: "pipe" });

    const first = s.server.requests[0]!.body;
    expect(first.tools ?? []).toEqual([]);
    const system = format === "anthropic" ? JSON.stringify(first.system) : first.messages[0].content;
    for (const tool of [
      "read_file",
      "write_to_file",
      "replace_in_file",
      "execute_command",
      "attempt_completion",
    ]) {
      expect(system).toContain(`<${tool}>`);
    }
    // The model sees its own XML and the results as plain text, paired by position.
    const second = s.server.requests[1]!.body;
    const assistant = second.messages.find((m: any) => m.role === "assistant");
    expect(JSON.stringify(assistant)).toContain("<execute_command>");
    expect(userTexts(format, second).at(-1)).toMatch(
      /\[execute_command for 'node --test'\] Result:[\s\S]*fail 1/,
    );
    const third = s.server.requests[2]!.body;
    expect(userTexts(format, third).at(-1)).toMatch(
      /\[read_file for 'src\/math.js'\] Result:[\s\S]*values\.length - 1/,
    );
  });
});

describe("--compact", () => {
  it("uses the short XML prompt for small local models and still completes the task", async () => {
    const full = await startScenario("openai", XML_SCRIPT);
    await full.run("Fix the failing test.", ["--yes", "--tool-protocol", "xml"]);
    const compact = await startScenario("openai", XML_SCRIPT);
    const run = await compact.run("Fix the failing test.", ["--yes", "--compact", "--output-format", "json"]);
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed" });
    const system = (s: typeof full) => s.server.requests[0]!.body.messages[0].content as string;
    expect(compact.server.requests[0]!.body.tools ?? []).toEqual([]);
    expect(system(compact)).toContain("<replace_in_file>");
    expect(system(compact).length).toBeLessThan(system(full).length * 0.7);
    expect(readFileSync(join(compact.repo, "src/math.js"), "utf8")).toContain(
      "return total / values.length;",
    );
  });
});

/**
 * The mistake limit through the real CLI: three consecutive mistakes (replies without a tool,
 * failing tool calls) fail a print-mode run; a successful call in between resets the count.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../support/fake-model-server.js";
import {
  closeScenarios,
  complete,
  readJournalLines,
  resultOf,
  sentToolResults,
  startScenario,
} from "./scenario.js";

const NUDGE = "[ERROR] Your previous response did not call a tool.";

afterEach(closeScenarios);

/** The text of the last user message of a request (Anthropic format). */
function lastUserText(request: RecordedRequest): string {
  const last = request.body.messages.at(-1);
  expect(last.role).toBe("user");
  return last.content.map((block: any) => block.text ?? "").join("\n");
}

const readMissing = (n: number) => ({
  toolCalls: [{ id: `toolu_missing_${n}`, name: "read_file", input: { path: `src/missing-${n}.js` } }],
});

describe("the mistake limit in print mode", () => {
  it("fails after three replies that call no tool, nudging the model after each", async () => {
    const s = await startScenario("anthropic", [
      { text: "I think the bug is in average." },
      { text: "Yes, it divides by the wrong number." },
      { text: "You should fix it." },
      complete("never reached"),
    ]);
    const run = await s.run("Fix the bug.", ["--output-format", "stream-json"]);

    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(s.server.requests).toHaveLength(3);
    expect(lastUserText(s.server.requests[0]!)).not.toContain(NUDGE);
    expect(lastUserText(s.server.requests[1]!)).toContain(NUDGE);
    expect(lastUserText(s.server.requests[2]!)).toContain(NUDGE);
    const result = resultOf(run);
    expect(result).toMatchObject({ type: "result", status: "failed", error: { code: "mistake_limit" } });
    expect(result.error.message).toContain("3 consecutive mistakes");
    expect(result.error.message).toContain("the reply called no tool");
    // The model's replies were kept in the history, each followed by a nudge.
    const api = readJournalLines(s.home, "api_history.jsonl");
    expect(api.broken).toEqual([]);
    expect(api.records.map((r) => r.message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("fails after three consecutive failing tool calls, naming the last one", async () => {
    const s = await startScenario("anthropic", [
      readMissing(1),
      readMissing(2),
      readMissing(3),
      complete("never"),
    ]);
    const run = await s.run("Read the helpers.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(1);
    expect(s.server.requests).toHaveLength(3);
    for (const [i, request] of s.server.requests.slice(1).entries()) {
      const [result] = sentToolResults(request);
      expect(result).toMatchObject({ id: `toolu_missing_${i + 1}`, isError: true });
      expect(result!.text).toContain(`src/missing-${i + 1}.js does not exist`);
    }
    const result = resultOf(run);
    expect(result.error.code).toBe("mistake_limit");
    expect(result.error.message).toContain("read_file: src/missing-3.js does not exist");
    // The third result is kept in the journal even though the model never saw it.
    const api = readJournalLines(s.home, "api_history.jsonl");
    const lastUser = api.records.at(-1).message;
    expect(lastUser.role).toBe("user");
    expect(lastUser.content[0]).toMatchObject({
      type: "tool_result",
      callId: "toolu_missing_3",
      isError: true,
    });
  });

  it("a successful call between failures resets the count, and the task completes", async () => {
    const s = await startScenario("anthropic", [
      readMissing(1),
      readMissing(2),
      { toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }] },
      readMissing(3),
      readMissing(4),
      complete("Found it."),
    ]);
    const run = await s.run("Read the helpers.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Found it." });
    expect(s.server.requests).toHaveLength(6);
  });

  it("a reply without a tool and failing calls count together", async () => {
    const s = await startScenario("anthropic", [
      readMissing(1),
      { text: "Hmm." },
      readMissing(2),
      complete(),
    ]);
    const run = await s.run("Read the helpers.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(1);
    expect(s.server.requests).toHaveLength(3);
    expect(resultOf(run).error.code).toBe("mistake_limit");
  });

  const write = { toolCalls: [{ name: "write_to_file", input: { path: "a.txt", content: "a" } }] };

  it("denied calls are not mistakes: three in a row do not stop the task", async () => {
    const s = await startScenario("anthropic", [write, write, write, complete("Needs --yes.")]);
    const run = await s.run("Write it.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    expect(s.server.requests).toHaveLength(4);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Needs --yes." });
  });

  it("a denied call does not reset the count either", async () => {
    const s = await startScenario("anthropic", [
      readMissing(1),
      readMissing(2),
      write,
      readMissing(3),
      complete(),
    ]);
    const run = await s.run("Write it.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(1);
    expect(s.server.requests).toHaveLength(4);
    expect(resultOf(run).error.code).toBe("mistake_limit");
  });
});

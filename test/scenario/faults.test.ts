/**
 * Every provider fault the fake server injects, through the real CLI over both main wire
 * formats: the task completes, the tool of the failed reply runs exactly once, the retry is
 * shown as a countdown, and the conversation journal holds no half message.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonLines } from "../support/cli.js";
import type { ScriptedTurn } from "../support/fake-model-server.js";
import {
  closeScenarios,
  complete,
  type Format,
  readJournalLines,
  resultOf,
  startScenario,
} from "./scenario.js";

afterEach(closeScenarios);

const FAULTS: Array<{ name: string; fault: NonNullable<ScriptedTurn["fault"]> }> = [
  { name: "HTTP 500", fault: { kind: "http", status: 500 } },
  { name: "HTTP 529 overloaded", fault: { kind: "http", status: 529, message: "Overloaded" } },
  { name: "HTTP 429 with retry-after", fault: { kind: "http", status: 429, retryAfterSeconds: 2 } },
  { name: "a reset before the response", fault: { kind: "reset" } },
  { name: "a reset mid-stream", fault: { kind: "drop", afterChunks: 6 } },
  { name: "a truncated stream", fault: { kind: "truncate", afterChunks: 6 } },
  { name: "a stalled stream", fault: { kind: "stall", afterChunks: 4 } },
];

const cases = (["anthropic", "openai"] as Format[]).flatMap((format) =>
  FAULTS.map((f) => ({ format, ...f })),
);

describe.each(cases)("$name over $format", ({ format, fault }) => {
  it("is retried after a countdown; the tool runs once and the journal has no half message", async () => {
    const step: ScriptedTurn = {
      text: "Recording the step.",
      toolCalls: [{ name: "execute_command", input: { command: "echo ran >> steps.log" } }],
    };
    const s = await startScenario(format, [{ ...step, fault }, step, complete("Recorded.")]);
    const run = await s.run("Record one step.", [
      "--output-format",
      "stream-json",
      "--yes",
      "--stream-idle-timeout",
      "0.5",
    ]);

    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Recorded." });
    expect(readFileSync(join(s.repo, "steps.log"), "utf8")).toBe("ran\n");
    expect(s.server.requests).toHaveLength(3);
    const retries = parseJsonLines(run.stdout).filter(
      (e) => e.type === "ui_message_updated" && e.message.payload.say === "api_retry" && !e.message.partial,
    );
    expect(retries).toHaveLength(1);
    expect(retries[0].message.payload).toMatchObject({ attempt: 1, secondsLeft: 0 });
    if (fault.kind === "http" && fault.retryAfterSeconds) {
      expect(retries[0].message.payload.delayMs).toBe(2000);
    }
    const api = readJournalLines(s.home, "api_history.jsonl").records.map((r) => r.message);
    expect(api.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(api[1].content).toEqual([
      { type: "text", text: "Recording the step." },
      expect.objectContaining({ type: "tool_call", name: "execute_command" }),
    ]);
  });
});

describe.each<{ format: Format; message: string }>([
  { format: "anthropic", message: "prompt is too long: 208310 tokens > 200000 maximum" },
  {
    format: "openai",
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens.",
  },
])("a context overflow over $format", ({ format, message }) => {
  it("is not retried as is: the older turns are dropped and the task goes on", async () => {
    const read = (path: string): ScriptedTurn => ({ toolCalls: [{ name: "read_file", input: { path } }] });
    const s = await startScenario(format, [
      read("src/math.js"),
      read("package.json"),
      read("README.md"),
      { fault: { kind: "http", status: 400, message } },
      complete("Done despite the overflow."),
    ]);
    const run = await s.run("Read around.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Done despite the overflow." });
    expect(s.server.requests).toHaveLength(5);
    const count = (i: number) => {
      const body = s.server.requests[i]!.body;
      return body.messages.filter((m: any) => m.role !== "system" && m.role !== "tool").length;
    };
    expect(count(4)).toBeLessThan(count(3));
    const notices = parseJsonLines(run.stdout).filter(
      (e) => e.type === "ui_message_added" && e.message.payload.say === "notice",
    );
    expect(notices.some((e) => /context window/.test(e.message.payload.text))).toBe(true);
    // The journal marks where the shortened history starts, so a resumed task sends the same.
    const api = readJournalLines(s.home, "api_history.jsonl").records;
    expect(api.filter((r) => r.compaction === true)).toHaveLength(1);
  });
});

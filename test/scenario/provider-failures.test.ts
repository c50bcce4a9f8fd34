/**
 * Provider failures through the real CLI: a rejected key fails fast without leaking the key,
 * a dropped stream is retried, and a provider that keeps failing ends the task with
 * `provider_error` after the retries.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonLines } from "../support/cli.js";
import {
  API_KEYS,
  closeScenarios,
  complete,
  type Format,
  readJournalLines,
  resultOf,
  startScenario,
} from "./scenario.js";

afterEach(closeScenarios);

/** Everything Bowline wrote to disk for its tasks. */
function journalText(home: string): string {
  const tasks = join(home, "tasks");
  return readdirSync(tasks)
    .flatMap((id) => readdirSync(join(tasks, id)).map((file) => readFileSync(join(tasks, id, file), "utf8")))
    .join("\n");
}

describe.each<Format>(["anthropic", "openai"])("HTTP 401 over %s", (format) => {
  it("fails quickly with the status, and the key appears nowhere", async () => {
    const key = API_KEYS[format];
    // Some providers echo (part of) the key they rejected; Bowline must not pass it on.
    const s = await startScenario(format, [
      { fault: { kind: "http", status: 401, message: `invalid x-api-key: ${key}` } },
      complete(),
    ]);
    const started = Date.now();
    const run = await s.run("Fix the bug.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(s.server.requests).toHaveLength(1);
    const result = resultOf(run);
    expect(result).toMatchObject({ status: "failed", error: { code: "provider_error" } });
    expect(result.error.message).toContain("401");
    expect(result.error.message).toContain("[redacted]");
    expect(run.stdout).not.toContain(key);
    expect(run.stderr).not.toContain(key);
    expect(journalText(s.home)).not.toContain(key);
    // The key was really sent to the server, so the checks above are meaningful.
    const sent = JSON.stringify(s.server.requests[0]!.headers);
    expect(sent).toContain(key);
  });
});

describe("retryable failures", () => {
  it("a connection dropped mid-stream is retried and the task completes", async () => {
    const s = await startScenario("anthropic", [
      { text: "Let me read the code first, carefully.", fault: { kind: "drop", afterChunks: 4 } },
      { toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }] },
      complete("Read it."),
    ]);
    const run = await s.run("Read the code.", ["--output-format", "stream-json"]);

    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Read it.", turns: 2 });
    expect(s.server.requests).toHaveLength(3);
    // The retry waited for the back-off (1 s by default) and sent the same conversation again.
    const [first, retry] = s.server.requests;
    expect(retry!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(900);
    expect(retry!.body.messages).toEqual(first!.body.messages);
    const retries = parseJsonLines(run.stdout).filter(
      (e) => e.type === "ui_message_added" && e.message.payload.say === "api_retry",
    );
    expect(retries.map((e) => e.message.payload)).toEqual([
      expect.objectContaining({ attempt: 1, secondsLeft: expect.any(Number) }),
    ]);
    // The half-received reply is not in the conversation.
    const api = readJournalLines(s.home, "api_history.jsonl");
    expect(api.records.map((r) => r.message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    // What the failed attempt showed is marked discarded, so a replay shows it once, hidden.
    const ui = readJournalLines(s.home, "ui_messages.jsonl").records;
    const partialTexts = ui.filter((r) => r.message.type === "say" && r.message.payload.say === "text");
    const discarded = partialTexts.filter((r) => r.message.discarded === true);
    expect(discarded).toHaveLength(1);
    expect("Let me read the code first, carefully.".startsWith(discarded[0].message.payload.text)).toBe(true);
    expect(
      partialTexts.filter((r) => r.message.id === discarded[0].message.id && !r.message.discarded),
    ).toHaveLength(1);
  });

  it("HTTP 500 on every attempt fails with provider_error after the retries", async () => {
    const s = await startScenario("anthropic", () => ({
      fault: { kind: "http", status: 500, message: "internal trouble" },
    }));
    const run = await s.run("Fix the bug.", ["--output-format", "stream-json", "--max-retries", "2"], {
      timeoutMs: 25_000,
    });

    expect(run.code).toBe(1);
    const result = resultOf(run);
    expect(result).toMatchObject({ status: "failed", error: { code: "provider_error" } });
    expect(result.error.message).toContain("HTTP 500");
    expect(result.error.message).toContain("internal trouble");
    // Three attempts by the loop (the first and two retries); the SDK's own retries are off, so
    // retries do not multiply.
    const retries = parseJsonLines(run.stdout).filter(
      (e) => e.type === "ui_message_added" && e.message.payload.say === "api_retry",
    );
    expect(retries.map((e) => [e.message.payload.attempt, e.message.payload.attempts])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    // Exponential back-off: about 1 s, then about 2 s (plus up to 25% jitter).
    const [a, b, c] = s.server.requests.map((r) => r.receivedAt);
    expect(b! - a!).toBeGreaterThanOrEqual(950);
    expect(c! - b!).toBeGreaterThanOrEqual(1950);
    expect(s.server.requests).toHaveLength(3);
    // The task message stays in the journal, and no assistant message was invented.
    const api = readJournalLines(s.home, "api_history.jsonl");
    expect(api.records.map((r) => r.message.role)).toEqual(["user"]);
  }, 30_000);
});

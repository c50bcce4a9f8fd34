/**
 * Stopping the real CLI: Ctrl-C (SIGINT) aborts cleanly with exit code 130 and an intact
 * journal; SIGKILL mid-task leaves a journal whose complete lines all parse and hold the
 * completed turns.
 */
import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonLines } from "../support/cli.js";
import {
  closeScenarios,
  complete,
  type Format,
  readJournalLines,
  resultOf,
  startScenario,
} from "./scenario.js";

const INTERRUPTED = "[Response interrupted by user]";

afterEach(closeScenarios);

const readFirst = { toolCalls: [{ id: "toolu_read", name: "read_file", input: { path: "src/math.js" } }] };

describe.each<Format>(["anthropic", "openai"])("Ctrl-C over %s", (format) => {
  it("while the model hangs: exits 130 within seconds, the journal intact", async () => {
    const s = await startScenario(format, [readFirst, { fault: { kind: "hang" } }, complete()]);
    let signalledAt = 0;
    const run = await s.run("Fix the bug.", ["--output-format", "stream-json"], {
      timeoutMs: 15_000,
      onSpawn: (child: ChildProcess) => {
        void s.server.waitForRequests(2, 10_000).then(() => {
          signalledAt = Date.now();
          child.kill("SIGINT");
        });
      },
    });

    expect(signalledAt).toBeGreaterThan(0);
    expect(Date.now() - signalledAt).toBeLessThan(3000);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("aborting");
    expect(resultOf(run)).toMatchObject({ type: "result", status: "aborted" });
    expect(s.server.requests).toHaveLength(2);

    for (const file of ["api_history.jsonl", "ui_messages.jsonl"] as const) {
      const journal = readJournalLines(s.home, file);
      expect(journal.broken, file).toEqual([]);
      expect(journal.records.every((r) => r.v === 2)).toBe(true);
    }
    const api = readJournalLines(s.home, "api_history.jsonl").records.map((r) => r.message);
    expect(api.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(api[2].content[0]).toMatchObject({ type: "tool_result", callId: "toolu_read" });
    expect(api[3].content).toEqual([{ type: "text", text: INTERRUPTED }]);
  });
});

describe("Ctrl-C while a reply streams", () => {
  it("keeps what arrived, marked as interrupted, and exits 130", async () => {
    const text =
      "I am going to explain this slowly, word by word, so that the stream takes a while to finish.";
    const s = await startScenario("anthropic", [
      { text, toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }], chunkDelayMs: 60 },
      complete(),
    ]);
    let seenText = false;
    const run = await s.run("Explain.", ["--output-format", "stream-json"], {
      timeoutMs: 15_000,
      onSpawn: (child: ChildProcess) => {
        let buffered = "";
        child.stdout!.on("data", (chunk) => {
          buffered += chunk;
          if (seenText || !buffered.includes('"say":"text"')) return;
          seenText = true;
          child.kill("SIGINT");
        });
      },
    });

    expect(seenText).toBe(true);
    expect(run.code).toBe(130);
    const events = parseJsonLines(run.stdout);
    expect(events.filter((e) => e.type === "state").map((e) => e.status)).toEqual(["running", "aborted"]);
    const api = readJournalLines(s.home, "api_history.jsonl");
    expect(api.broken).toEqual([]);
    const last = api.records.at(-1).message;
    expect(last.role).toBe("assistant");
    expect(last.content.some((b: any) => b.type === "tool_call")).toBe(false);
    const said = last.content.map((b: any) => b.text).join("");
    expect(said.endsWith(INTERRUPTED)).toBe(true);
    expect(text.startsWith(said.slice(0, -INTERRUPTED.length))).toBe(true);
    expect(said.length).toBeGreaterThan(INTERRUPTED.length);
  });
});

describe("SIGKILL mid-task", () => {
  it("leaves a journal whose complete lines parse and hold the completed turns", async () => {
    const s = await startScenario("anthropic", [
      readFirst,
      { text: "Now the tests, which take a long time to report.", chunkDelayMs: 200 },
      complete(),
    ]);
    const run = await s.run("Fix the bug.", ["--output-format", "stream-json"], {
      timeoutMs: 15_000,
      onSpawn: (child: ChildProcess) => {
        void s.server.waitForRequests(2, 10_000).then(() => setTimeout(() => child.kill("SIGKILL"), 300));
      },
    });

    expect(run.signal).toBe("SIGKILL");
    for (const file of ["api_history.jsonl", "ui_messages.jsonl"] as const) {
      const journal = readJournalLines(s.home, file);
      // At most a torn last line; every complete line parses.
      expect(
        journal.broken.filter((i) => i !== journal.lineCount - 1),
        file,
      ).toEqual([]);
    }
    const api = readJournalLines(s.home, "api_history.jsonl").records.map((r) => r.message);
    // The first turn is complete: the task, the reply calling read_file, and its result.
    expect(api.slice(0, 3).map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(api[1].content).toContainEqual(expect.objectContaining({ type: "tool_call", id: "toolu_read" }));
    expect(api[2].content[0]).toMatchObject({ type: "tool_result", callId: "toolu_read" });
    expect(JSON.stringify(api[2].content[0].content)).toContain("export function average");
    const ui = readJournalLines(s.home, "ui_messages.jsonl").records;
    expect(ui.some((r) => r.message.payload.say === "tool" && r.message.payload.status === "done")).toBe(
      true,
    );
  });
});

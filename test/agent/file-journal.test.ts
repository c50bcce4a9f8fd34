import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFileJournal } from "../../src/coding/session/file-journal.js";

describe("the file journal", () => {
  it("appends one versioned record per line and counts what it wrote", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "bowline-journal-")), "task");
    const journal = createFileJournal(dir);
    journal.appendApi({ role: "user", content: [{ type: "text", text: "hi" }] });
    journal.appendApi({ role: "assistant", content: [{ type: "text", text: "hello" }] });
    journal.appendUi("add", { id: "m1", ts: 1, type: "say", payload: { say: "text", text: "hello" } });
    await journal.sync();
    await journal.close();
    const api = readFileSync(join(dir, "api_history.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(api.map((r) => [r.v, r.message.role])).toEqual([
      [1, "user"],
      [1, "assistant"],
    ]);
    const ui = readFileSync(join(dir, "ui_messages.jsonl"), "utf8");
    expect(JSON.parse(ui)).toMatchObject({ v: 1, op: "add", message: { id: "m1" } });
    expect(journal.bytesWritten()).toBe(
      Buffer.byteLength(readFileSync(join(dir, "api_history.jsonl"))) + Buffer.byteLength(ui),
    );
  });

  it("appends to an existing journal instead of rewriting it", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "bowline-journal-")), "task");
    const first = createFileJournal(dir);
    first.appendApi({ role: "user", content: [{ type: "text", text: "one" }] });
    await first.close();
    const second = createFileJournal(dir);
    second.appendApi({ role: "user", content: [{ type: "text", text: "two" }] });
    await second.close();
    expect(readFileSync(join(dir, "api_history.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
  });
});

describe("compaction records", () => {
  it("marks the first message of a condensed history", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "bowline-journal-")), "task");
    const journal = createFileJournal(dir);
    journal.appendApi({ role: "user", content: [{ type: "text", text: "old" }] });
    journal.appendApi({ role: "user", content: [{ type: "text", text: "summary" }] }, { compaction: true });
    await journal.close();
    const records = readFileSync(join(dir, "api_history.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.compaction ?? false)).toEqual([false, true]);
  });
});

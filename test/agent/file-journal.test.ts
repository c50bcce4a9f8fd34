import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMessageStore } from "../../src/agent/message-store.js";
import { createFileJournal } from "../../src/coding/session/file-journal.js";
import type { LlmMessage } from "../../src/llm/types.js";

const text = (role: "user" | "assistant", t: string): LlmMessage => ({
  role,
  content: [{ type: "text", text: t }],
});
const lines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const newDir = () => join(mkdtempSync(join(tmpdir(), "bowline-journal-")), "task");

describe("the file journal", () => {
  it("appends one versioned record per line and counts what it wrote", async () => {
    const dir = newDir();
    const journal = createFileJournal(dir);
    const store = createMessageStore({ emit: () => {}, journal });
    store.append(text("user", "hi"));
    store.ui.say({ say: "text", text: "hello" });
    store.append(text("assistant", "hello"));
    await journal.close();
    const api = lines(join(dir, "api_history.jsonl"));
    expect(api).toEqual([
      {
        v: 2,
        type: "message",
        id: "e1",
        parent: null,
        ts: expect.any(Number),
        message: text("user", "hi"),
        uiCount: 0,
      },
      {
        v: 2,
        type: "message",
        id: "e2",
        parent: "e1",
        ts: expect.any(Number),
        message: text("assistant", "hello"),
        uiCount: 1,
      },
    ]);
    const ui = readFileSync(join(dir, "ui_messages.jsonl"), "utf8");
    expect(JSON.parse(ui)).toMatchObject({ v: 2, op: "add", message: { id: "m1" } });
    expect(journal.bytesWritten()).toBe(
      Buffer.byteLength(readFileSync(join(dir, "api_history.jsonl"))) + Buffer.byteLength(ui),
    );
  });

  it("appends to an existing journal instead of rewriting it", async () => {
    const dir = newDir();
    const first = createFileJournal(dir);
    createMessageStore({ emit: () => {}, journal: first }).append(text("user", "one"));
    await first.close();
    const second = createFileJournal(dir);
    createMessageStore({
      emit: () => {},
      journal: second,
      resume: { entries: [{ id: "e1", message: text("user", "one") }], nextEntryNumber: 2, ui: [] },
    }).append(text("assistant", "two"));
    await second.close();
    expect(lines(join(dir, "api_history.jsonl")).map((r) => [r.id, r.parent])).toEqual([
      ["e1", null],
      ["e2", "e1"],
    ]);
  });
});

describe("the message store", () => {
  it("journals a replaced history as new entries, the first marked as a compaction", async () => {
    const dir = newDir();
    const journal = createFileJournal(dir);
    const store = createMessageStore({ emit: () => {}, journal });
    store.append(text("user", "old"));
    store.append(text("assistant", "old reply"));
    store.replace([text("user", "summary"), text("assistant", "next")]);
    await journal.close();

    expect(store.history).toEqual([text("user", "summary"), text("assistant", "next")]);
    expect(store.entryIds).toEqual(["e3", "e4"]);
    const records = lines(join(dir, "api_history.jsonl"));
    expect(records.map((r) => [r.id, r.parent, r.compaction ?? false])).toEqual([
      ["e1", null, false],
      ["e2", "e1", false],
      ["e3", "e2", true],
      ["e4", "e3", false],
    ]);
  });

  it("rewinds to an earlier entry with a record, keeping the later entries in the file", async () => {
    const dir = newDir();
    const journal = createFileJournal(dir);
    const store = createMessageStore({ emit: () => {}, journal });
    store.append(text("user", "a"));
    store.append(text("assistant", "b"));
    store.append(text("user", "c"));
    store.rewindTo("e1");
    store.append(text("assistant", "b2"));
    await journal.close();

    expect(store.history).toEqual([text("user", "a"), text("assistant", "b2")]);
    const records = lines(join(dir, "api_history.jsonl"));
    expect(records.map((r) => r.type)).toEqual(["message", "message", "message", "rewind", "message"]);
    expect(records[3]).toMatchObject({ to: "e1" });
    expect(records[4]).toMatchObject({ id: "e4", parent: "e1" });
    expect(() => store.rewindTo("e99")).toThrow(/No entry e99/);
  });

  it("continues UI message ids after a resumed task's", () => {
    const store = createMessageStore({
      emit: () => {},
      resume: {
        entries: [],
        nextEntryNumber: 1,
        ui: [{ id: "mz", ts: 1, type: "say", payload: { say: "text", text: "before" } }],
      },
    });
    expect(store.ui.say({ say: "text", text: "after" }).id).toBe("m10");
    expect(store.ui.messages).toHaveLength(2);
  });
});

describe("reopening a journal after a crash", () => {
  it("cuts off a torn last line before appending, so every line parses", async () => {
    const dir = newDir();
    const first = createFileJournal(dir);
    const store = createMessageStore({ emit: () => {}, journal: first });
    store.append(text("user", "complete"));
    await first.close();
    const file = join(dir, "api_history.jsonl");
    appendFileSync(file, '{"v":2,"type":"message","id":"e2","par');
    const second = createFileJournal(dir);
    createMessageStore({
      emit: () => {},
      journal: second,
      resume: { entries: [{ id: "e1", message: text("user", "complete") }], nextEntryNumber: 2, ui: [] },
    }).append(text("assistant", "after the crash"));
    await second.close();
    expect(lines(file).map((r) => [r.id, r.parent])).toEqual([
      ["e1", null],
      ["e2", "e1"],
    ]);
  });
});

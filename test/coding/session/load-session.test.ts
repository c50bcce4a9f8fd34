import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileJournal } from "../../../src/coding/session/file-journal.js";
import { loadSession } from "../../../src/coding/session/load-session.js";
import { SessionLoadError } from "../../../src/coding/session/session-error.js";
import type { LlmMessage } from "../../../src/llm/types.js";
import {
  apiRequest,
  assistant,
  entry,
  jsonl,
  makeHome,
  say,
  texts,
  user,
  writeTask,
} from "./task-fixture.js";

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function loadError(id: string): SessionLoadError {
  try {
    loadSession(home, id);
  } catch (error) {
    expect(error).toBeInstanceOf(SessionLoadError);
    return error as SessionLoadError;
  }
  throw new Error("the load succeeded");
}

describe("loading a v2 task", () => {
  it("follows the chain of entries; the next entry continues after the highest id", () => {
    writeTask(home, "t1", {
      api: [
        entry("e1", null, user("task")),
        entry("e2", "e1", assistant("a1")),
        entry("e3", "e2", user("u2")),
      ],
      ui: [say("m1", { say: "task", text: "task" }, 5), say("m2", { say: "text", text: "a1" }, 9)],
    });
    const session = loadSession(home, "t1");
    expect(session.meta).toMatchObject({ id: "t1", workspace: "/work/project", model: "claude-test" });
    expect(texts(session.history)).toEqual(["task", "a1", "u2"]);
    expect(session.entries.map((e) => [e.id, e.taskId])).toEqual([
      ["e1", "t1"],
      ["e2", "t1"],
      ["e3", "t1"],
    ]);
    expect(session.nextParent).toBe("e3");
    expect(session.nextEntryNumber).toBe(4);
    expect(session.ui.map((m) => m.id)).toEqual(["m1", "m2"]);
    expect(session.lastActivity).toBe(1003);
    expect(session.warnings).toEqual([]);
    expect(session.interrupted).toEqual({ callIds: [], names: [] });
  });

  it("keeps each UI message in its latest state, in order of first appearance", () => {
    writeTask(home, "t1", {
      api: [entry("e1", null, user("task"))],
      ui: [
        say("m1", { say: "task", text: "task" }),
        say("m2", {
          say: "tool",
          tool: "read_file",
          callId: "c1",
          summary: "a.ts",
          input: {},
          status: "running",
        }),
        say("m3", { say: "text", text: "partial reply" }),
        {
          ...say("m2", {
            say: "tool",
            tool: "read_file",
            callId: "c1",
            summary: "a.ts",
            input: {},
            status: "done",
          }),
          op: "update",
        },
        {
          ...say("m3", { say: "text", text: "partial reply" }, 1000, { discarded: true }),
          op: "update",
          ts: 2500,
        },
      ],
    });
    const session = loadSession(home, "t1");
    expect(session.ui.map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
    expect(session.ui[1]).toMatchObject({ payload: { status: "done" } });
    expect(session.ui[2]).toMatchObject({ discarded: true });
    expect(session.lastActivity).toBe(2500);
  });

  it("starts the active history at the last compaction entry", () => {
    writeTask(home, "t1", {
      api: [
        entry("e1", null, user("task")),
        entry("e2", "e1", assistant("a1")),
        entry("e3", "e2", user("summary of e1-e2"), { compaction: true }),
        entry("e4", "e3", assistant("a2")),
      ],
    });
    const session = loadSession(home, "t1");
    expect(texts(session.history)).toEqual(["summary of e1-e2", "a2"]);
    expect(session.entries[0]).toMatchObject({ id: "e3", compaction: true });
  });

  it("continues from the target of a rewind, and from the entries appended after it", () => {
    const api: unknown[] = [
      entry("e1", null, user("task")),
      entry("e2", "e1", assistant("a1")),
      entry("e3", "e2", user("u2")),
      entry("e4", "e3", assistant("a2")),
      { v: 2, type: "rewind", ts: 2000, to: "e2" },
    ];
    writeTask(home, "t1", { api });
    let session = loadSession(home, "t1");
    expect(texts(session.history)).toEqual(["task", "a1"]);
    expect(session.nextParent).toBe("e2");
    expect(session.nextEntryNumber).toBe(5);
    expect(session.lastActivity).toBe(2000);

    writeTask(home, "t1", { api: [...api, entry("e5", "e2", user("another way"))] });
    session = loadSession(home, "t1");
    expect(texts(session.history)).toEqual(["task", "a1", "another way"]);

    writeTask(home, "t1", { api: [...api, { v: 2, type: "rewind", ts: 2001, to: null }] });
    session = loadSession(home, "t1");
    expect(session.history).toEqual([]);
    expect(session.nextParent).toBeNull();
  });
});

describe("migrating v1 journals", () => {
  it("gives v1 records ids e1, e2, ... each following the previous, and honours compaction", () => {
    writeTask(home, "old", {
      api: [
        { v: 1, ts: 10, message: user("task") },
        { v: 1, ts: 20, message: assistant("a1") },
        { v: 1, ts: 30, message: user("condensed"), compaction: true },
        { v: 1, ts: 40, message: assistant("a2") },
      ],
      ui: [
        {
          v: 1,
          ts: 5,
          op: "add",
          message: { id: "m1", ts: 5, type: "say", payload: { say: "task", text: "task" } },
        },
        {
          v: 1,
          ts: 25,
          op: "add",
          message: { id: "m2", ts: 25, type: "say", payload: { say: "text", text: "a1" } },
        },
      ],
    });
    const session = loadSession(home, "old");
    expect(texts(session.history)).toEqual(["condensed", "a2"]);
    expect(session.entries.map((e) => [e.id, e.parent, e.compaction])).toEqual([
      ["e3", "e2", true],
      ["e4", "e3", undefined],
    ]);
    // The UI count of a migrated entry: the UI messages journaled by then.
    expect(session.entries.map((e) => e.uiCount)).toEqual([2, 2]);
    expect(session.nextEntryNumber).toBe(5);
    expect(session.nextParent).toBe("e4");
  });

  it("reads a v1 journal continued with v2 records", () => {
    writeTask(home, "old", {
      api: [
        { v: 1, ts: 10, message: user("task") },
        { v: 1, ts: 20, message: assistant("a1") },
        entry("e3", "e2", user("resumed")),
      ],
    });
    const session = loadSession(home, "old");
    expect(texts(session.history)).toEqual(["task", "a1", "resumed"]);
    expect(session.entries.map((e) => e.id)).toEqual(["e1", "e2", "e3"]);
  });
});

describe("forks", () => {
  /** a: e1..e4; b forks a at e2 and adds e1, e2; c forks b at its e1. */
  beforeEach(() => {
    writeTask(home, "a", {
      api: [
        entry("e1", null, user("task"), { uiCount: 1 }),
        entry("e2", "e1", assistant("a1"), { uiCount: 2 }),
        entry("e3", "e2", user("u2"), { uiCount: 3 }),
        entry("e4", "e3", assistant("a2"), { uiCount: 4 }),
      ],
      ui: [
        say("m1", { say: "task", text: "task" }),
        say("m2", { say: "text", text: "a1" }),
        say("m3", { say: "user_message", text: "u2" }),
        say("m4", { say: "text", text: "a2" }),
        apiRequest("m5", 0, {
          inputTokens: 100,
          outputTokens: 10,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 1,
        }),
      ],
    });
    writeTask(home, "b", {
      api: [
        { v: 2, type: "fork", ts: 3000, fromTask: "a", fromEntry: "e2" },
        entry("e1", null, user("b1"), { uiCount: 3 }),
        entry("e2", "e1", assistant("b2"), { uiCount: 4 }),
      ],
      ui: [
        say("m6", { say: "user_message", text: "b1" }, 3001),
        say("m7", { say: "text", text: "b2" }, 3002),
      ],
    });
    writeTask(home, "c", {
      api: [{ v: 2, type: "fork", ts: 4000, fromTask: "b", fromEntry: "e1" }],
    });
  });

  it("continues a null parent into the source task at the fork point", () => {
    const session = loadSession(home, "b");
    expect(texts(session.history)).toEqual(["task", "a1", "b1", "b2"]);
    expect(session.entries.map((e) => `${e.taskId}:${e.id}`)).toEqual(["a:e1", "a:e2", "b:e1", "b:e2"]);
    expect(session.nextParent).toBe("e2");
    expect(session.nextEntryNumber).toBe(3);
    expect(session.forkedFrom).toEqual({ taskId: "a", entryId: "e2" });
    // The source's UI is cut where the fork point was written; a's request was a's spending.
    expect(session.ui.map((m) => m.id)).toEqual(["m1", "m2", "m6", "m7"]);
    expect(session.usage).toMatchObject({ inputTokens: 0 });
    expect(session.lastActivity).toBe(3002);
  });

  it("resolves a fork of a fork, with no entries of its own yet", () => {
    const session = loadSession(home, "c");
    expect(texts(session.history)).toEqual(["task", "a1", "b1"]);
    expect(session.entries.map((e) => `${e.taskId}:${e.id}`)).toEqual(["a:e1", "a:e2", "b:e1"]);
    // The first entry of c's own has no parent: its fork record says where it starts.
    expect(session.nextParent).toBeNull();
    expect(session.nextEntryNumber).toBe(1);
    expect(session.ui.map((m) => m.id)).toEqual(["m1", "m2", "m6"]);
    expect(session.lastActivity).toBe(4000);
  });

  it("stops at a compaction inside the source", () => {
    writeTask(home, "d", {
      api: [
        entry("e1", null, user("task")),
        entry("e2", "e1", user("summary"), { compaction: true }),
        entry("e3", "e2", assistant("after")),
      ],
    });
    writeTask(home, "e", {
      api: [{ v: 2, type: "fork", ts: 1, fromTask: "d", fromEntry: "e3" }, entry("e1", null, user("mine"))],
    });
    expect(texts(loadSession(home, "e").history)).toEqual(["summary", "after", "mine"]);
  });

  it("fails clearly when the source task is gone or the fork point does not exist", () => {
    rmSync(join(home, "tasks", "a"), { recursive: true });
    const gone = loadError("b");
    expect(gone.code).toBe("broken_chain");
    expect(gone.message).toContain("forked from task a, which no longer exists");
    writeTask(home, "f", { api: [{ v: 2, type: "fork", ts: 1, fromTask: "c", fromEntry: "e9" }] });
    expect(loadError("f").message).toContain("entry e9");
  });

  it("refuses a fork cycle", () => {
    writeTask(home, "x", {
      api: [{ v: 2, type: "fork", ts: 1, fromTask: "y", fromEntry: "e1" }, entry("e1", null, user("x"))],
    });
    writeTask(home, "y", {
      api: [{ v: 2, type: "fork", ts: 1, fromTask: "x", fromEntry: "e1" }, entry("e1", null, user("y"))],
    });
    expect(loadError("x").code).toBe("broken_chain");
  });
});

describe("damage", () => {
  const good = [entry("e1", null, user("task")), entry("e2", "e1", assistant("a1"))];

  it("drops a torn last line of the API file, says so, and reads the file once the writer appended after it", async () => {
    const dir = writeTask(home, "t1", { api: `${jsonl(good)}{"v":2,"type":"message","id":"e3","par` });
    const session = loadSession(home, "t1");
    expect(texts(session.history)).toEqual(["task", "a1"]);
    expect(session.warnings).toEqual([
      expect.stringMatching(/api_history\.jsonl: dropped a torn last line \(line 3\)/),
    ]);
    // The writer cuts the torn line off when it opens the file again.
    const journal = createFileJournal(dir);
    journal.appendApi(entry("e3", session.nextParent, user("u2")));
    await journal.close();
    const resumed = loadSession(home, "t1");
    expect(texts(resumed.history)).toEqual(["task", "a1", "u2"]);
    expect(resumed.warnings).toEqual([]);
  });

  it("drops a torn last line of the UI file", () => {
    writeTask(home, "t1", {
      api: good,
      ui: `${jsonl([say("m1", { say: "task", text: "task" })])}{"v":2,"ts":5,"op":"add","mess`,
    });
    const session = loadSession(home, "t1");
    expect(session.ui.map((m) => m.id)).toEqual(["m1"]);
    expect(session.warnings).toEqual([
      expect.stringContaining("ui_messages.jsonl: dropped a torn last line (line 2)"),
    ]);
  });

  it("counts a last record without its newline as torn (the writer cuts it off, too)", () => {
    writeTask(home, "t1", { api: jsonl(good).trimEnd() });
    const session = loadSession(home, "t1");
    expect(texts(session.history)).toEqual(["task"]);
    expect(session.warnings).toEqual([expect.stringContaining("torn last line (line 2)")]);
  });

  it("fails on a corrupt line that is not the last, naming the file and the line", () => {
    writeTask(home, "t1", { api: `${jsonl(good.slice(0, 1))}not json\n${jsonl(good.slice(1))}` });
    const error = loadError("t1");
    expect(error.code).toBe("corrupt_journal");
    expect(error.message).toMatch(/api_history\.jsonl line 2 is not a valid journal record/);

    writeTask(home, "t2", {
      api: good,
      ui: `{"v":2,"ts":1,"op":"add"}\n${jsonl([say("m1", { say: "task", text: "x" })])}`,
    });
    expect(loadError("t2").message).toMatch(
      /ui_messages\.jsonl line 1 .*op add\|update and a message with an id/,
    );
  });

  it("refuses records from a newer Bowline, entries pointing nowhere, a missing task and a bad id", () => {
    writeTask(home, "t1", { api: [{ v: 9, type: "message", ts: 1 }] });
    expect(loadError("t1").code).toBe("unsupported_version");
    writeTask(home, "t2", { api: [entry("e1", null, user("a")), entry("e2", "e7", assistant("b"))] });
    expect(loadError("t2")).toMatchObject({
      code: "broken_chain",
      message: expect.stringContaining("entry e7"),
    });
    writeTask(home, "t3", { api: [entry("e1", null, user("a")), { v: 2, type: "rewind", ts: 2, to: "e5" }] });
    expect(loadError("t3").code).toBe("broken_chain");
    expect(loadError("nope")).toMatchObject({ code: "task_not_found" });
    expect(loadError("../t1")).toMatchObject({ code: "invalid_task_id" });
    writeTask(home, "t4", { meta: false });
    expect(loadError("t4")).toMatchObject({
      code: "corrupt_journal",
      message: expect.stringContaining("task.json"),
    });
  });
});

describe("what a resume needs", () => {
  const call = (id: string, name: string) => ({ type: "tool_call" as const, id, name, input: {} });
  const result = (callId: string) => ({
    type: "tool_result" as const,
    callId,
    content: [{ type: "text" as const, text: "ok" }],
  });

  it("reports the tool calls of the last assistant message that have no result", () => {
    const reply: LlmMessage = {
      role: "assistant",
      content: [{ type: "text", text: "go" }, call("c1", "read_file"), call("c2", "execute_command")],
    };
    writeTask(home, "t1", { api: [entry("e1", null, user("task")), entry("e2", "e1", reply)] });
    expect(loadSession(home, "t1").interrupted).toEqual({
      callIds: ["c1", "c2"],
      names: ["read_file", "execute_command"],
    });

    writeTask(home, "t2", {
      api: [
        entry("e1", null, user("task")),
        entry("e2", "e1", reply),
        entry("e3", "e2", { role: "user", content: [result("c1")] }),
      ],
    });
    expect(loadSession(home, "t2").interrupted).toEqual({ callIds: ["c2"], names: ["execute_command"] });

    writeTask(home, "t3", {
      api: [
        entry("e1", null, user("task")),
        entry("e2", "e1", reply),
        entry("e3", "e2", { role: "user", content: [result("c1"), result("c2")] }),
      ],
    });
    expect(loadSession(home, "t3").interrupted.callIds).toEqual([]);
  });

  it("sums the usage of the finished requests and counts turns once per request index", () => {
    const usage = (input: number, cost?: number) => ({
      inputTokens: input,
      outputTokens: 5,
      cacheReadTokens: 100,
      cacheWriteTokens: 10,
      ...(cost === undefined ? {} : { costUsd: cost }),
    });
    writeTask(home, "t1", {
      api: [entry("e1", null, user("task"))],
      ui: [
        apiRequest("m1", 0, usage(50, 0.25)),
        // A failed attempt, retried: hidden, but its tokens were paid for.
        { ...apiRequest("m2", 1, usage(20, 0.5)), op: "add" },
        { ...apiRequest("m2", 1, usage(20, 0.5), 1000, { discarded: true }), op: "update" },
        apiRequest("m3", 1, usage(30)),
        apiRequest("m4", 2),
      ],
    });
    const session = loadSession(home, "t1");
    expect(session.usage).toEqual({
      inputTokens: 100,
      outputTokens: 15,
      cacheReadTokens: 300,
      cacheWriteTokens: 30,
      costUsd: 0.75,
    });
    expect(session.turns).toBe(3);
  });
});

describe("a long task", () => {
  it("loads a 1,000-message, 20 MB task correctly", async () => {
    const { writeLargeTask } = await import("../../../bench/session-resume.js");
    const { bytes, messages } = writeLargeTask(home, "big");
    expect(bytes).toBeGreaterThan(20_000_000);
    const started = performance.now();
    const session = loadSession(home, "big");
    const elapsed = performance.now() - started;
    expect(session.history).toHaveLength(messages);
    expect(session.entries.at(-1)!.id).toBe(`e${messages}`);
    expect(session.nextEntryNumber).toBe(messages + 1);
    expect(session.ui.length).toBeGreaterThan(messages);
    expect(session.turns).toBe(messages / 2);
    expect(session.interrupted.callIds).toEqual([]);
    expect(session.history.at(-1)).toEqual(
      JSON.parse(
        readFileSync(join(home, "tasks", "big", "api_history.jsonl"), "utf8")
          .trimEnd()
          .split("\n")
          .at(-1)!,
      ).message,
    );
    // Generous bound for a loaded CI machine; the benchmark measures the real figure.
    expect(elapsed).toBeLessThan(3000);
  });
});

import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportTask } from "../../../src/coding/session/export.js";
import { deleteTask, lastTask, listTasks, taskTitle } from "../../../src/coding/session/history-index.js";
import type { SessionLoadError } from "../../../src/coding/session/session-error.js";
import { apiRequest, assistant, entry, jsonl, makeHome, say, user, writeTask } from "./task-fixture.js";

let home: string;
let here: string;
let there: string;

const usage = (input: number, costUsd: number) => ({
  inputTokens: input,
  outputTokens: 10,
  cacheReadTokens: 100,
  cacheWriteTokens: 0,
  costUsd,
});

/** Three tasks: two in `here` (one finished), one in `there`. */
beforeEach(() => {
  home = makeHome();
  here = join(home, "here");
  there = join(home, "there");
  mkdirSync(here);
  mkdirSync(there);
  writeTask(home, "20250101-000000-aaaaaa", {
    meta: {
      workspace: here,
      task: "Fix the failing test\nin src/a.ts",
      createdAt: "2025-01-01T00:00:00.000Z",
    },
    api: [entry("e1", null, user("Fix the failing test"), { ts: Date.parse("2025-01-01T00:00:05Z") })],
    ui: [
      say("m1", { say: "task", text: "Fix the failing test" }, Date.parse("2025-01-01T00:00:01Z")),
      apiRequest("m2", 0, usage(1000, 0.5), Date.parse("2025-01-01T00:00:02Z")),
      say("m3", { say: "completion_result", text: "Fixed." }, Date.parse("2025-01-01T00:00:03Z")),
    ],
  });
  writeTask(home, "20250102-000000-bbbbbb", {
    meta: { workspace: there, task: "Write docs", createdAt: "2025-01-02T00:00:00.000Z" },
    api: [entry("e1", null, user("Write docs"), { ts: Date.parse("2025-01-02T00:00:05Z") })],
  });
  writeTask(home, "20250103-000000-cccccc", {
    meta: { workspace: here, task: "Add a feature", createdAt: "2025-01-03T00:00:00.000Z" },
    api: [entry("e1", null, user("Add a feature"), { ts: Date.parse("2025-01-03T00:00:09Z") })],
    ui: [say("m1", { say: "task", text: "Add a feature" }, Date.parse("2025-01-03T00:00:01Z"))],
  });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const indexPath = () => join(home, "tasks", "index.json");

describe("the history index", () => {
  it("lists the tasks newest first, with title, times, turns, tokens, cost and status", () => {
    const tasks = listTasks(home);
    expect(tasks.map((task) => task.id)).toEqual([
      "20250103-000000-cccccc",
      "20250102-000000-bbbbbb",
      "20250101-000000-aaaaaa",
    ]);
    expect(tasks[2]).toEqual({
      id: "20250101-000000-aaaaaa",
      title: "Fix the failing test",
      workspace: here,
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:00:05.000Z",
      turns: 1,
      tokens: 1110,
      costUsd: 0.5,
      status: "completed",
    });
    expect(tasks[0]).toMatchObject({ updatedAt: "2025-01-03T00:00:09.000Z", status: "unfinished", turns: 0 });
    expect(tasks[1]).not.toHaveProperty("status");
  });

  it("filters by workspace, and finds the last task of a workspace for --continue", () => {
    expect(listTasks(home, { workspace: here }).map((task) => task.title)).toEqual([
      "Add a feature",
      "Fix the failing test",
    ]);
    expect(lastTask(home, there)?.id).toBe("20250102-000000-bbbbbb");
    expect(lastTask(home, join(home, "elsewhere"))).toBeUndefined();
  });

  it("writes the cache atomically and privately, and uses it while the task files are unchanged", () => {
    listTasks(home);
    expect(statSync(indexPath()).mode & 0o777).toBe(0o600);
    const cache = JSON.parse(readFileSync(indexPath(), "utf8"));
    expect(cache.tasks).toHaveLength(3);
    // A cached summary is served as is (proof: an edit to the cache shows through).
    const edited = cache.tasks.map((task: { id: string }) =>
      task.id === "20250101-000000-aaaaaa" ? { ...task, title: "from the cache" } : task,
    );
    writeFileSync(indexPath(), JSON.stringify({ ...cache, tasks: edited }));
    expect(listTasks(home).find((task) => task.id === "20250101-000000-aaaaaa")?.title).toBe(
      "from the cache",
    );
    expect(readFileSync(join(home, "tasks", "index.json"), "utf8")).toContain("from the cache");
  });

  it("summarises a task again when its files changed since it was cached", () => {
    listTasks(home);
    const dir = join(home, "tasks", "20250102-000000-bbbbbb");
    writeFileSync(
      join(dir, "ui_messages.jsonl"),
      jsonl([apiRequest("m1", 0, usage(50, 0.1), Date.parse("2025-02-01T00:00:00Z"))]),
      { flag: "a" },
    );
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, "ui_messages.jsonl"), later, later);
    const task = listTasks(home).find((summary) => summary.id === "20250102-000000-bbbbbb");
    expect(task).toMatchObject({
      turns: 1,
      tokens: 160,
      costUsd: 0.1,
      updatedAt: "2025-02-01T00:00:00.000Z",
    });
    expect(listTasks(home)[0]!.id).toBe("20250102-000000-bbbbbb");
  });

  it("rebuilds a missing or corrupt cache, and drops deleted tasks from it", () => {
    listTasks(home);
    writeFileSync(indexPath(), "{ not json");
    expect(listTasks(home)).toHaveLength(3);
    expect(JSON.parse(readFileSync(indexPath(), "utf8")).tasks).toHaveLength(3);
    rmSync(indexPath());
    expect(listTasks(home)).toHaveLength(3);
    rmSync(join(home, "tasks", "20250102-000000-bbbbbb"), { recursive: true });
    expect(listTasks(home)).toHaveLength(2);
    expect(JSON.parse(readFileSync(indexPath(), "utf8")).tasks).toHaveLength(2);
  });

  it("lists an unreadable task as broken, and skips a folder where no task ever started", () => {
    writeTask(home, "20250104-000000-dddddd", { meta: false, api: [entry("e1", null, user("x"))] });
    mkdirSync(join(home, "tasks", "20250105-000000-eeeeee"));
    writeFileSync(join(home, "tasks", "20250105-000000-eeeeee", "api_history.jsonl"), "");
    const tasks = listTasks(home);
    expect(tasks.map((task) => task.id)).not.toContain("20250105-000000-eeeeee");
    expect(tasks.find((task) => task.id === "20250104-000000-dddddd")).toMatchObject({
      status: "broken",
      problem: expect.stringContaining("task.json"),
    });
  });

  it("shortens a long title to its first line", () => {
    expect(taskTitle("\n  Refactor   the parser  \nthen test it")).toBe("Refactor the parser");
    expect(taskTitle("x".repeat(100))).toHaveLength(72);
  });
});

describe("deleting a task", () => {
  it("removes the folder; refuses path-like ids, unknown ids and sources of forks", () => {
    const refusal = (id: string) => {
      try {
        deleteTask(home, id);
      } catch (error) {
        return error as SessionLoadError;
      }
      throw new Error("deleted");
    };
    mkdirSync(join(home, "x"));
    expect(refusal("../x")).toMatchObject({ code: "invalid_task_id" });
    expect(refusal("..")).toMatchObject({ code: "invalid_task_id" });
    expect(refusal("a/b")).toMatchObject({ code: "invalid_task_id" });
    expect(statSync(join(home, "x")).isDirectory()).toBe(true);
    expect(refusal("20990101-000000-ffffff")).toMatchObject({ code: "task_not_found" });

    writeTask(home, "fork", {
      meta: { workspace: here },
      api: [{ v: 2, type: "fork", ts: 1, fromTask: "20250101-000000-aaaaaa", fromEntry: "e1" }],
    });
    expect(listTasks(home).find((task) => task.id === "fork")?.forkedFrom).toBe("20250101-000000-aaaaaa");
    expect(refusal("20250101-000000-aaaaaa")).toMatchObject({
      code: "has_forks",
      message: expect.stringContaining("fork"),
    });

    deleteTask(home, "fork");
    deleteTask(home, "20250101-000000-aaaaaa");
    expect(listTasks(home).map((task) => task.id)).toEqual([
      "20250103-000000-cccccc",
      "20250102-000000-bbbbbb",
    ]);
  });
});

describe("exporting a task", () => {
  beforeEach(() => {
    writeTask(home, "t1", {
      meta: { workspace: here, task: "Fix the bug" },
      api: [
        entry("e1", null, user("Fix the bug")),
        entry("e2", "e1", {
          role: "assistant",
          content: [{ type: "tool_call", id: "c1", name: "read_file", input: { path: "a.ts" } }],
        }),
        entry("e3", "e2", {
          role: "user",
          content: [{ type: "tool_result", callId: "c1", content: [{ type: "text", text: "x" }] }],
        }),
        entry("e4", "e3", assistant("done")),
      ],
      ui: [
        say("m1", { say: "task", text: "Fix the bug" }),
        apiRequest("m2", 0, usage(2000, 0.012)),
        say("m3", { say: "text", text: "Let me look at the file." }),
        say("m4", {
          say: "tool",
          tool: "read_file",
          callId: "c1",
          summary: "a.ts",
          input: { path: "a.ts" },
          status: "done",
          output: Array.from({ length: 50 }, (_, i) => `line ${i + 1} \`\`\``).join("\n"),
        }),
        say("m5", { say: "text", text: "A failed attempt" }, 1000, { discarded: true }),
        say("m6", { say: "user_message", text: "Also check b.ts" }),
        say("m7", { say: "completion_result", text: "The bug is fixed." }),
      ],
    });
  });

  it("as a markdown transcript", () => {
    const markdown = exportTask(home, "t1", "markdown");
    expect(markdown).toMatch(
      /^# Fix the bug\n\n- Task: t1\n- Workspace: .*here\n- Model: claude-test \(anthropic\)/,
    );
    const order = [
      "## Task",
      "Let me look at the file.",
      "**Tool** `read_file` a.ts (done)",
      "## User",
      "## Result",
    ];
    const positions = order.map((text) => markdown.indexOf(text));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // Outputs are shortened and fenced so that backticks inside cannot end the block.
    expect(markdown).toContain("````text\nline 1 ```");
    expect(markdown).toContain("line 20 ```\n…");
    expect(markdown).not.toContain("line 21");
    expect(markdown).not.toContain("A failed attempt");
    expect(markdown).toContain(
      "## Usage\n\n1 turn · 2,100 input tokens (100 from the cache) · 10 output tokens · $0.0120",
    );
  });

  it("as JSON: the task file, the active API history and the UI messages", () => {
    const exported = JSON.parse(exportTask(home, "t1", "json"));
    expect(Object.keys(exported)).toEqual(["meta", "history", "ui"]);
    expect(exported.meta).toMatchObject({ id: "t1", task: "Fix the bug" });
    expect(exported.history).toHaveLength(4);
    expect(exported.history[1].content[0]).toMatchObject({ type: "tool_call", name: "read_file" });
    expect(exported.ui.map((message: { id: string }) => message.id)).toEqual([
      "m1",
      "m2",
      "m3",
      "m4",
      "m5",
      "m6",
      "m7",
    ]);
  });
});

/**
 * Slash commands the core answers: each sends its protocol command, waits for the answering
 * event, and shows it (checkpoints, model, context, stored tasks, rules).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Checkpoint, Command } from "../../../src/protocol/index.js";
import { KEYS, type MountedTui, mountTui, settle } from "./harness.js";

let t: MountedTui;
afterEach(() => t.unmount());

const command = (text: string) => t.type(text, KEYS.enter);
const last = (): Command | undefined => t.dispatched.at(-1);

const checkpoint = (
  id: string,
  kind: Checkpoint["kind"],
  label: string,
  previousId?: string,
): Checkpoint => ({
  id,
  taskId: "t1",
  kind,
  label,
  createdAt: Date.parse("2026-11-30T10:00:00Z"),
  files: kind === "baseline" ? [] : [{ path: `${label.replace(/\s/g, "-")}.ts`, status: "modified" }],
  ...(previousId ? { previousId } : {}),
});

const TIMELINE = [
  checkpoint("b000aaaa", "baseline", "task start"),
  checkpoint("s111bbbb", "step", "step 1", "b000aaaa"),
  checkpoint("s222cccc", "step", "step 2", "s111bbbb"),
];

describe("checkpoint commands", () => {
  it("/undo restores the files to before the last step, and again goes one further back", async () => {
    t = mountTui();
    t.state("completed");
    await command("/undo");
    expect(last()).toEqual({ type: "list_checkpoints", taskId: "t1" });
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    expect(last()).toEqual({ type: "restore_checkpoint", checkpointId: "s111bbbb", mode: "files" });
    t.emit({
      type: "checkpoint_restored",
      checkpointId: "s111bbbb",
      mode: "files",
      changed: [{ path: "step-2.ts", status: "modified" }],
      undoId: "p333dddd",
    });
    await settle();
    expect(t.frame()).toContain("Undone: the files are back to before step 2 (1 file: step-2.ts)");

    const afterUndo = [
      ...TIMELINE,
      checkpoint("p333dddd", "pre-restore", "before restore", "s222cccc"),
      checkpoint("r444eeee", "restore", "restored", "p333dddd"),
    ];
    await command("/undo");
    t.emit({ type: "checkpoints_listed", checkpoints: afterUndo, storeBytes: 1000 });
    await settle();
    expect(last()).toEqual({ type: "restore_checkpoint", checkpointId: "b000aaaa", mode: "files" });
    t.emit({ type: "checkpoint_restored", checkpointId: "b000aaaa", mode: "files", changed: [] });
    await settle();
    expect(t.frame()).toContain("Undone: the files are back to before step 1.");

    const count = t.dispatched.length;
    await command("/undo");
    t.emit({ type: "checkpoints_listed", checkpoints: afterUndo, storeBytes: 1000 });
    await settle();
    expect(t.dispatched).toHaveLength(count + 1);
    expect(t.frame()).toContain("Nothing more to undo");
  });

  it("/undo shows files changed outside the task and overwrites them only with force", async () => {
    t = mountTui();
    t.state("completed");
    await command("/undo");
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    t.emit({
      type: "checkpoint_restore_conflicts",
      checkpointId: "s111bbbb",
      mode: "files",
      files: ["notes.txt"],
    });
    await settle();
    expect(t.frame()).toContain("Changed outside the task since its last checkpoint — not overwritten");
    expect(t.frame()).toContain("notes.txt");
    expect(t.frame()).toContain("Run /undo force to overwrite them.");
    await command("/undo force");
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    expect(last()).toEqual({
      type: "restore_checkpoint",
      checkpointId: "s111bbbb",
      mode: "files",
      force: true,
    });
  });

  it("/undo while the agent works asks to stop it first and restores nothing", async () => {
    t = mountTui();
    await command("start");
    t.state("running");
    await command("/undo");
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    expect(t.dispatched.some((c) => c.type === "restore_checkpoint")).toBe(false);
    expect(t.frame()).toContain("stop it first (Esc)");
  });

  it("/rewind lists the timeline; /rewind n task rewinds the conversation", async () => {
    t = mountTui();
    t.state("completed");
    await command("/rewind");
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    const frame = t.frame();
    expect(frame).toContain("Checkpoints of this task (oldest first)");
    expect(frame).toMatch(/1\. \d\d:\d\d:\d\d {2}start: task start/);
    expect(frame).toMatch(/3\. \d\d:\d\d:\d\d {2}step: step 2 — step-2\.ts/);
    await command("/rewind 2 task");
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    expect(last()).toEqual({ type: "restore_checkpoint", checkpointId: "s111bbbb", mode: "task" });
    t.emit({ type: "checkpoint_restored", checkpointId: "s111bbbb", mode: "task", changed: [] });
    await settle();
    expect(t.frame()).toContain("Rewound the conversation to checkpoint 2 (step 1).");
    await command("/rewind 9");
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    expect(t.frame()).toContain("No checkpoint 9: /rewind lists them.");
  });

  it("/diff compares the task's start with now and shows the patch marked line by line", async () => {
    t = mountTui();
    t.state("completed");
    await command("/diff");
    t.emit({ type: "checkpoints_listed", checkpoints: TIMELINE, storeBytes: 1000 });
    await settle();
    expect(last()).toEqual({ type: "diff_checkpoints", from: "b000aaaa", to: undefined });
    const patch = "diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old line\n+new line\n";
    t.emit({
      type: "checkpoint_diff",
      diff: {
        from: "b000aaaa",
        to: "worktree",
        files: [{ path: "a.ts", status: "modified", added: 1, removed: 1, binary: false, patch }],
      },
    });
    await settle();
    const frame = t.frame();
    expect(frame).toContain("Changes from task start to now");
    expect(frame).toContain("modified a.ts  +1 -1");
    expect(frame).toContain("-old line");
    expect(frame).toContain("+new line");
  });

  it("says why when checkpoints are off", async () => {
    t = mountTui();
    await command("/rewind");
    t.emit({
      type: "checkpoints_unavailable",
      reason: "no_store",
      message: "Checkpoints are off for this task.",
    });
    await settle();
    expect(t.frame()).toContain("Checkpoints are off for this task.");
  });
});

describe("session commands", () => {
  it("/model switches through the core; the status line follows", async () => {
    t = mountTui({ contextWindow: 200_000 });
    await command("/model gpt-next");
    expect(last()).toEqual({ type: "set_model", model: "gpt-next" });
    t.emit({ type: "model_changed", provider: "openai", model: "gpt-next", contextWindow: 400_000 });
    await settle();
    expect(t.frame()).toContain("Model: openai gpt-next (window 400k) from the next request.");
    expect(t.frame()).toContain("ctx 0/400k");
    await command("/model nope");
    t.emit({ type: "command_failed", command: "set_model", message: "No key for provider nope." });
    await settle();
    expect(t.frame()).toContain("No key for provider nope.");
  });

  it("/context shows what fills the window, by part", async () => {
    t = mountTui();
    await command("/context");
    expect(last()).toEqual({ type: "get_context" });
    t.emit({
      type: "context_report",
      report: {
        parts: [
          { name: "system prompt", tokens: 9000 },
          { name: "tool results", tokens: 21000 },
        ],
        estimatedTokens: 30000,
        lastPromptTokens: 31000,
        contextWindow: 200000,
      },
    });
    await settle();
    const frame = t.frame();
    expect(frame).toMatch(/tool results\s+21k\s+10\.5%/);
    expect(frame).toMatch(/system prompt\s+9\.0k\s+4\.5%/);
    expect(frame).toContain("of 200k");
    expect(frame).toContain("The last request's prompt counted 31k tokens");
  });

  it("/resume lists the other tasks and opens the chosen one", async () => {
    const opened: string[] = [];
    t = mountTui({ openTask: (id) => opened.push(id ?? "a new task") });
    const tasks = [
      { id: "t1", title: "this one", updatedAt: "2026-11-30T10:00:00Z", turns: 2, current: true },
      {
        id: "t0",
        title: "fix the parser",
        updatedAt: "2026-11-29T09:30:00Z",
        turns: 7,
        costUsd: 0.5,
        current: false,
      },
    ];
    await command("/resume");
    t.emit({ type: "tasks_listed", tasks });
    await settle();
    expect(t.frame()).toContain("1. 2026-11-29 09:30  fix the parser  (7 turns · $0.50)");
    expect(t.frame()).not.toContain("this one");
    await command("/resume 1");
    t.emit({ type: "tasks_listed", tasks });
    await settle();
    expect(opened).toEqual(["t0"]);
  });

  it("/rules lists the rules in force and how commands run", async () => {
    t = mountTui();
    await command("/rules");
    expect(last()).toEqual({ type: "list_rules" });
    t.emit({
      type: "rules_listed",
      rules: [
        { action: "deny", rule: "execute_command(rm -rf)", source: "user settings" },
        { action: "allow", rule: "execute_command(npm test)", source: "remembered for this workspace" },
      ],
      sandbox: "Commands run in a workspace-write sandbox without network.",
    });
    await settle();
    const frame = t.frame();
    expect(frame).toContain("deny  execute_command(rm -rf)  (user settings)");
    expect(frame).toContain("allow execute_command(npm test)  (remembered for this workspace)");
    expect(frame).toContain("workspace-write sandbox");
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiMessageRecord } from "../../../src/agent/journal.js";
import type { LlmMessage } from "../../../src/llm/types.js";
import type { UiMessage, Usage } from "../../../src/protocol/index.js";

/** A fresh Bowline home in the temp dir. */
export function makeHome(): string {
  return mkdtempSync(join(tmpdir(), "bowline-session-"));
}

export interface TaskFiles {
  /** Overrides of task.json; `false` leaves it out. */
  meta?: Record<string, unknown> | false;
  /** Records (one JSON line each) or the raw text of the file. */
  api?: unknown[] | string;
  ui?: unknown[] | string;
}

/** Writes a task folder the way the journal writer lays it out. */
export function writeTask(home: string, id: string, files: TaskFiles): string {
  const dir = join(home, "tasks", id);
  mkdirSync(dir, { recursive: true });
  if (files.meta !== false) {
    const meta = {
      v: 1,
      id,
      workspace: "/work/project",
      task: `Task ${id}`,
      provider: "anthropic",
      model: "claude-test",
      createdAt: "2025-01-01T00:00:00.000Z",
      ...files.meta,
    };
    writeFileSync(join(dir, "task.json"), JSON.stringify(meta, null, 2));
  }
  writeFileSync(join(dir, "api_history.jsonl"), jsonl(files.api ?? []));
  writeFileSync(join(dir, "ui_messages.jsonl"), jsonl(files.ui ?? []));
  return dir;
}

export function jsonl(records: unknown[] | string): string {
  return typeof records === "string"
    ? records
    : records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

export const user = (text: string): LlmMessage => ({ role: "user", content: [{ type: "text", text }] });
export const assistant = (text: string): LlmMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
});

/** A v2 message entry. */
export function entry(
  id: string,
  parent: string | null,
  message: LlmMessage,
  extra: Partial<ApiMessageRecord> = {},
): ApiMessageRecord {
  return { v: 2, type: "message", id, parent, ts: 1000 + Number(id.slice(1)), message, uiCount: 0, ...extra };
}

/** A UI `add` record of a say message. */
export function say(id: string, payload: Record<string, unknown>, ts = 1000, extra: Partial<UiMessage> = {}) {
  return { v: 2, ts, op: "add", message: { id, ts, type: "say", payload, ...extra } };
}

export function apiRequest(
  id: string,
  index: number,
  usage?: Usage,
  ts = 1000,
  extra: Partial<UiMessage> = {},
) {
  return say(id, { say: "api_request", index, ...(usage ? { usage } : {}) }, ts, extra);
}

/** Text of each message of a history, for compact assertions. */
export const texts = (history: LlmMessage[]) =>
  history.map((message) =>
    message.content.map((block) => (block.type === "text" ? block.text : block.type)).join("+"),
  );

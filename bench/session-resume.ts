import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadSession } from "../src/coding/session/load-session.js";
import { median, round } from "./support.js";

/**
 * Resume of a long task: a 1,000-message, 20 MB journal (tool results of ~40 kB each, like a
 * session that read many files) loaded back into its active history, UI messages, usage and
 * interrupted calls. Target: under 500 ms.
 */
const MESSAGES = 1000;
const RESULT_CHARS = 41_000;
const targets = { loadMs: 500 };

export async function benchSessionResume(runs = Number(process.env.BENCH_RUNS ?? 7)) {
  const home = mkdtempSync(join(tmpdir(), "bowline-bench-resume-"));
  try {
    const { bytes } = writeLargeTask(home, "big");
    loadSession(home, "big"); // warm the page cache and the code
    const loadMs: number[] = [];
    let historyLength = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      historyLength = loadSession(home, "big").history.length;
      loadMs.push(performance.now() - started);
    }
    const medianMs = round(median(loadMs), 1);
    return {
      messages: historyLength,
      megabytes: round(bytes / 1_000_000, 1),
      loadMs: { median: medianMs, min: round(Math.min(...loadMs), 1), max: round(Math.max(...loadMs), 1) },
      targets,
      met: { load: historyLength === MESSAGES && medianMs < targets.loadMs },
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Writes task `id` under `home`: `messages` API entries (the task, then assistant tool calls
 * and user tool results, ending with a final assistant text) and the UI messages a session
 * would have journaled for them. Returns the bytes written.
 */
export function writeLargeTask(home: string, id: string, messages = MESSAGES) {
  const dir = join(home, "tasks", id);
  mkdirSync(dir, { recursive: true });
  const meta = {
    v: 1,
    id,
    workspace: "/work/project",
    task: "Refactor the parser",
    provider: "anthropic",
    model: "claude-test",
    createdAt: "2025-01-01T00:00:00.000Z",
  };
  writeFileSync(join(dir, "task.json"), JSON.stringify(meta));
  const api: string[] = [];
  const ui: string[] = [];
  let uiCount = 0;
  const addUi = (ts: number, payload: Record<string, unknown>) => {
    uiCount++;
    const message = { id: `m${uiCount.toString(36)}`, ts, type: "say", payload };
    ui.push(JSON.stringify({ v: 2, ts, op: "add", message }));
  };
  addUi(0, { say: "task", text: meta.task });
  for (let n = 1; n <= messages; n++) {
    const ts = 1_700_000_000_000 + n * 1000;
    const callId = `call_${n - 1}`;
    let message: unknown;
    if (n === 1) {
      message = { role: "user", content: [{ type: "text", text: meta.task }] };
    } else if (n % 2 === 0) {
      const last = n === messages;
      addUi(ts, {
        say: "api_request",
        index: n / 2 - 1,
        usage: {
          inputTokens: 100,
          outputTokens: 50,
          cacheReadTokens: 5000,
          cacheWriteTokens: 200,
          costUsd: 0.01,
        },
      });
      addUi(ts, { say: "text", text: `Step ${n / 2}: reading the next file.` });
      message = {
        role: "assistant",
        content: [
          { type: "text", text: `Step ${n / 2}: reading the next file.` },
          ...(last
            ? []
            : [
                { type: "tool_call", id: `call_${n}`, name: "read_file", input: { path: `src/file${n}.ts` } },
              ]),
        ],
      };
    } else {
      const output = fileText(n);
      addUi(ts, {
        say: "tool",
        tool: "read_file",
        callId,
        summary: `src/file${n - 1}.ts`,
        input: {},
        status: "done",
        output: output.slice(0, 2000),
      });
      message = {
        role: "user",
        content: [{ type: "tool_result", callId, content: [{ type: "text", text: output }] }],
      };
    }
    api.push(
      JSON.stringify({
        v: 2,
        type: "message",
        id: `e${n}`,
        parent: n === 1 ? null : `e${n - 1}`,
        ts,
        message,
        uiCount,
      }),
    );
  }
  const apiPath = join(dir, "api_history.jsonl");
  const uiPath = join(dir, "ui_messages.jsonl");
  writeFileSync(apiPath, `${api.join("\n")}\n`);
  writeFileSync(uiPath, `${ui.join("\n")}\n`);
  return { bytes: statSync(apiPath).size + statSync(uiPath).size, messages };
}

/** Source-like text, different for each file. */
function fileText(n: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 1; length < RESULT_CHARS; line++) {
    const text = `${line}\texport function parse${n}_${line}(input: string) { return input.split("${n}").map((x) => x.trim()); }`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchSessionResume(), null, 2)}\n`);
}

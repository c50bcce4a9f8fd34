import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ScriptedTurn, startFakeModelServer } from "../test/support/fake-model-server.js";
import { CLI, round, runProcess } from "./support.js";

/**
 * Bytes written to disk over a 1,000-message session: Bowline appends each record once; Cline's
 * design rewrites both whole files (the API history and the UI messages, as JSON arrays) on every
 * change, streaming updates included. Cline's curve is computed from the same session's events:
 * after each change, the size of the file it would rewrite.
 */
export async function benchJournalGrowth(messages = 1000) {
  const turns = Math.ceil(messages / 2);
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-journal-"));
  const repo = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "notes.txt"), `${"a line of notes for the agent to read\n".repeat(30)}`);
  const script = (_request: unknown, index: number): ScriptedTurn =>
    index < turns - 1
      ? {
          text: `Step ${index + 1}: reading the notes to check one more detail before going on.`,
          toolCalls: [
            { name: "read_file", input: { path: "notes.txt", start_line: 1, end_line: (index % 30) + 1 } },
          ],
        }
      : { toolCalls: [{ name: "attempt_completion", input: { result: "finished" } }] };
  const server = await startFakeModelServer({ script, chunkSize: 24 });
  try {
    const run = await runProcess(
      process.execPath,
      [
        CLI,
        "-p",
        "benchmark",
        "--provider",
        "anthropic",
        "--base-url",
        server.url,
        "--model",
        "bench",
        "--yes",
        "--output-format",
        "stream-json",
      ],
      { cwd: repo, env: { PATH: process.env.PATH, HOME: root, BOWLINE_HOME: home, ANTHROPIC_API_KEY: "k" } },
    );
    if (run.code !== 0) throw new Error(`journal session failed (${run.code}): ${run.stderr}`);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const result = lines.at(-1);
    const taskDir = join(home, "tasks", readdirSync(join(home, "tasks"))[0]!);
    const finalBytes = ["api_history.jsonl", "ui_messages.jsonl"].reduce(
      (sum, f) => sum + statSync(join(taskDir, f)).size,
      0,
    );
    // Cline: every UI change rewrites the UI file; every API message rewrites the API file.
    const ui = new Map<string, number>();
    let uiSize = 2;
    let clineBytes = 0;
    const curve: Array<[number, number]> = [];
    for (const event of lines) {
      if (event.type !== "ui_message_added" && event.type !== "ui_message_updated") continue;
      const size = Buffer.byteLength(JSON.stringify(event.message)) + 1;
      uiSize += size - (ui.get(event.message.id) ?? 0);
      ui.set(event.message.id, size);
      clineBytes += uiSize;
    }
    let apiSize = 2;
    const api = readFileSync(join(taskDir, "api_history.jsonl"), "utf8").trim().split("\n");
    for (const [i, line] of api.entries()) {
      apiSize += Buffer.byteLength(JSON.stringify(JSON.parse(line).message)) + 1;
      clineBytes += apiSize;
      if ((i + 1) % 100 === 0) curve.push([i + 1, clineBytes]);
    }
    return {
      messages: api.length,
      finalJournalBytes: finalBytes,
      bowline: {
        bytesWritten: result.journalBytesWritten,
        overFinal: round(result.journalBytesWritten / finalBytes, 3),
      },
      clineDesign: {
        bytesWritten: clineBytes,
        overFinal: round(clineBytes / finalBytes, 1),
        curveByApiMessages: curve,
      },
      met: { atMost1_5x: result.journalBytesWritten / finalBytes <= 1.5 },
    };
  } finally {
    await server.close();
  }
}

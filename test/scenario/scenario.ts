/**
 * Shared setup for scenario tests: a fake model server, a fresh example repository, and the
 * `bowline` flags and environment that point the real CLI at the server in either wire format.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type CliRun, makeWorkspace, type RunCliOptions, runCli } from "../support/cli.js";
import {
  type FakeModelServer,
  type RecordedRequest,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";

export type Format = "anthropic" | "openai";

export const API_KEYS: Record<Format, string> = {
  anthropic: "sk-ant-test-Zq8xK2secret",
  openai: "sk-test-Wm4vR7secret",
};

/** A reply that completes the task. */
export const complete = (result = "Done."): ScriptedTurn => ({
  toolCalls: [{ name: "attempt_completion", input: { result } }],
});

export interface Scenario {
  server: FakeModelServer;
  repo: string;
  home: string;
  format: Format;
  /** Runs `bowline -p <task> <model flags> ...extra` in the repository. */
  run(task: string | undefined, extra?: string[], options?: Partial<RunCliOptions>): Promise<CliRun>;
}

const open: FakeModelServer[] = [];

/** Starts a server playing `script`; close it with `closeScenarios` in `afterEach`. */
export async function startScenario(
  format: Format,
  script: ScriptedTurn[] | ((request: RecordedRequest, index: number) => ScriptedTurn | undefined),
): Promise<Scenario> {
  const server = await startFakeModelServer({ script });
  open.push(server);
  const { repo, home } = makeWorkspace();
  const baseUrl = format === "anthropic" ? server.url : `${server.url}/v1`;
  const keyVar = format === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  const modelFlags = ["--provider", format, "--base-url", baseUrl, "--model", "fake-model"];
  return {
    server,
    repo,
    home,
    format,
    run(task, extra = [], options = {}) {
      const taskArgs = task === undefined ? ["-p"] : ["-p", task];
      return runCli([...taskArgs, ...modelFlags, ...extra], {
        cwd: repo,
        ...options,
        env: { [keyVar]: API_KEYS[format], BOWLINE_HOME: home, ...options.env },
      });
    },
  };
}

export async function closeScenarios(): Promise<void> {
  await Promise.all(open.splice(0).map((server) => server.close()));
}

export interface SentToolResult {
  id: string;
  text: string;
  /** Anthropic marks errors on the wire; OpenAI Chat has no such flag (undefined). */
  isError: boolean | undefined;
}

/** The tool results the request sends for the previous assistant message, in order. */
export function sentToolResults(request: RecordedRequest): SentToolResult[] {
  const messages: any[] = request.body.messages;
  if (request.format === "anthropic-messages") {
    const last = messages.at(-1);
    if (last?.role !== "user" || typeof last.content === "string") return [];
    return last.content
      .filter((block: any) => block.type === "tool_result")
      .map((block: any) => ({
        id: block.tool_use_id,
        text: block.content.map((part: any) => part.text ?? "").join("\n"),
        isError: block.is_error === true,
      }));
  }
  const lastAssistant = messages.findLastIndex((m: any) => m.role === "assistant");
  return messages
    .slice(lastAssistant + 1)
    .filter((m: any) => m.role === "tool")
    .map((m: any) => ({ id: m.tool_call_id, text: m.content, isError: undefined }));
}

/** The ids of the tool calls in the last assistant message of the request, in order. */
export function sentToolCallIds(request: RecordedRequest): string[] {
  const messages: any[] = request.body.messages;
  const assistant = messages.findLast((m: any) => m.role === "assistant");
  if (!assistant) return [];
  if (request.format === "anthropic-messages") {
    return assistant.content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id);
  }
  return (assistant.tool_calls ?? []).map((call: any) => call.id);
}

/** The last event of a stream-json run: the result object. */
export function resultOf(run: CliRun): any {
  const lines = run.stdout.trim().split("\n");
  return JSON.parse(lines.at(-1) ?? "null");
}

/** A journal file's lines split into the parsed ones and the unparsable ones (with their index). */
export function readJournalLines(
  home: string,
  file: "api_history.jsonl" | "ui_messages.jsonl",
): { records: any[]; broken: number[]; lineCount: number } {
  const tasks = existsSync(join(home, "tasks")) ? readdirSync(join(home, "tasks")) : [];
  if (tasks.length !== 1) throw new Error(`expected one task folder, found ${tasks.length}`);
  const text = readFileSync(join(home, "tasks", tasks[0]!, file), "utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const records: any[] = [];
  const broken: number[] = [];
  lines.forEach((line, index) => {
    try {
      records.push(JSON.parse(line));
    } catch {
      broken.push(index);
    }
  });
  return { records, broken, lineCount: lines.length };
}

export { isRunning } from "../support/process.js";

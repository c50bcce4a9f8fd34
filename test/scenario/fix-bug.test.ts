import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findBrowser } from "../../src/coding/browser/find-browser.js";
import { DEMO_SCRIPT } from "../../src/hosts/cli/demo.js";
import { makeWorkspace, parseJsonLines, readJournal, runCli } from "../support/cli.js";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.js";

type Format = "anthropic" | "openai";

/** The model's tool names and result pairing, read from a recorded request in either wire format. */
function toolNames(format: Format, body: any): string[] {
  return format === "anthropic"
    ? body.tools.map((t: any) => t.name)
    : body.tools.map((t: any) => t.function.name);
}
function lastToolCallIds(format: Format, body: any): { calls: string[]; results: string[] } {
  const messages = body.messages;
  if (format === "anthropic") {
    const assistant = messages.at(-2);
    const user = messages.at(-1);
    return {
      calls: assistant.content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id),
      results: user.content.filter((b: any) => b.type === "tool_result").map((b: any) => b.tool_use_id),
    };
  }
  const lastAssistant = messages.findLastIndex((m: any) => m.role === "assistant");
  return {
    calls: messages[lastAssistant].tool_calls.map((c: any) => c.id),
    results: messages
      .slice(lastAssistant + 1)
      .filter((m: any) => m.role === "tool")
      .map((m: any) => m.tool_call_id),
  };
}

describe.each<Format>(["anthropic", "openai"])("a real task end to end over %s", (format) => {
  let server: FakeModelServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it("reads the code, fixes the bug, runs the tests and completes", async () => {
    server = await startFakeModelServer({ script: DEMO_SCRIPT });
    const { repo, home } = makeWorkspace();
    const baseUrl = format === "anthropic" ? server.url : `${server.url}/v1`;
    const env =
      format === "anthropic"
        ? { ANTHROPIC_API_KEY: "sk-ant-test-secret", BOWLINE_HOME: home }
        : { OPENAI_API_KEY: "sk-test-secret", BOWLINE_HOME: home };
    const run = await runCli(
      [
        "-p",
        "Fix the failing average test.",
        "--provider",
        format,
        "--base-url",
        baseUrl,
        "--model",
        "fake-model",
        "--yes",
        "--output-format",
        "stream-json",
      ],
      { cwd: repo, env },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);

    // The file is fixed and the project's tests pass.
    expect(readFileSync(join(repo, "src/math.js"), "utf8")).toContain("return total / values.length;");
    execFileSync(process.execPath, ["--test"], { cwd: repo, stdio: "pipe" });

    // The events: one protocol event per line, ending with the result.
    const events = parseJsonLines(run.stdout);
    const added = events.filter((e) => e.type === "ui_message_added").map((e) => e.message.payload);
    // --yes says loudly that nothing will be asked, then the task starts.
    expect(added[0]).toMatchObject({ say: "notice", text: expect.stringContaining("YOLO") });
    expect(added.find((p) => p.say === "task")).toEqual({
      say: "task",
      text: "Fix the failing average test.",
    });
    const toolsDone = events
      .filter(
        (e) =>
          e.type === "ui_message_updated" &&
          e.message.payload.say === "tool" &&
          e.message.payload.status === "done",
      )
      .map((e) => e.message.payload.tool);
    expect(toolsDone).toEqual([
      "execute_command",
      "read_file",
      "replace_in_file",
      "execute_command",
      "attempt_completion",
    ]);
    const completed = events.find((e) => e.type === "task_completed");
    expect(completed.result).toContain("Fixed `average`");
    expect(completed.turns).toBe(5);
    expect(completed.usage.inputTokens).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: "result", status: "completed" });

    // The requests: five, with the tools offered and each result paired with its call.
    expect(server.requests).toHaveLength(5);
    expect(server.requests[0]!.body.model).toBe("fake-model");
    expect(toolNames(format, server.requests[0]!.body)).toEqual(
      // --yes approves everything, so nobody is there to answer: ask_followup_question is not offered.
      [
        "read_file",
        "write_to_file",
        "replace_in_file",
        "list_files",
        "search_files",
        "list_code_definition_names",
        "execute_command",
        "command_output",
        // Offered when a Chromium is installed (CI installs one) and the model takes images.
        ...(findBrowser() ? ["browser_action"] : []),
        "web_fetch",
        "use_subagents",
        "attempt_completion",
      ],
    );
    for (const request of server.requests.slice(1)) {
      const { calls, results } = lastToolCallIds(format, request.body);
      expect(calls.length).toBe(1);
      expect(results).toEqual(calls);
    }
    const firstUser = JSON.stringify(server.requests[0]!.body.messages[format === "anthropic" ? 0 : 1]);
    expect(firstUser).toContain("<task>");
    expect(firstUser).toContain("environment_details");
    // The failing test output reached the model in the second request.
    expect(JSON.stringify(server.requests[1]!.body.messages)).toMatch(/fail 1/);

    // The journal on disk: every API message, and the UI messages, appended as JSONL.
    const api = readJournal(home, "api_history.jsonl");
    expect(api.records.map((r) => r.message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(api.records.every((r) => r.v === 2 && r.type === "message")).toBe(true);
    const ui = readJournal(home, "ui_messages.jsonl");
    expect(ui.records.some((r) => r.message.payload.say === "completion_result")).toBe(true);
    expect(ui.records.every((r) => r.message.partial !== true)).toBe(true);
    const meta = JSON.parse(readFileSync(join(api.taskDir, "task.json"), "utf8"));
    expect(meta).toMatchObject({
      workspace: repo,
      model: "fake-model",
      task: "Fix the failing average test.",
    });
    // Secrets never reach the journal.
    expect(readFileSync(join(api.taskDir, "api_history.jsonl"), "utf8")).not.toContain("secret");
  });
});

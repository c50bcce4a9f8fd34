/**
 * The shell grammar the approval rules read commands with is loaded once the first model
 * request is on its way, not before it (its wasm compilation would delay the request), and a
 * command the model calls in its very first reply is still judged with it.
 */
import { expect, it } from "vitest";
import type { ApprovalPolicy } from "../../src/agent/approval.js";
import { createTaskSession } from "../../src/coding/controller.js";
import { loadedShellParser } from "../../src/coding/safety/shell-parser.js";
import type { Event } from "../../src/protocol/index.js";
import { makeWorkspace } from "../support/cli.js";
import { fakeAnthropicConfig } from "../support/fake-model-server.js";
import { fakeServersClosedAfterEach } from "../support/servers.js";

const startFakeModelServer = fakeServersClosedAfterEach();

it("loads after the first request, and the first reply's command waits for it", async () => {
  // Read-only only when parsed: a pipe and `&&`. Unparsed, the rules would not understand it
  // and would leave it to the host, which refuses everything here.
  const command = "ls && head -n 1 package.json | wc -l";
  const server = await startFakeModelServer({
    script: [
      { toolCalls: [{ name: "execute_command", input: { command } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] },
    ],
  });
  const { repo, home } = makeWorkspace();
  const leftToHost: unknown[] = [];
  const host: ApprovalPolicy = (_tool, input) => {
    leftToHost.push(input);
    return { type: "deny", reason: "the host refuses" };
  };
  let loadedAtFirstRequest: boolean | undefined;
  const session = await createTaskSession({
    cwd: repo,
    home,
    modelConfig: fakeAnthropicConfig(server.url),
    policy: host,
    interactive: false,
    checkpoints: false,
    emit(event: Event) {
      if (event.type !== "ui_message_added" || event.message.type !== "say") return;
      const payload = event.message.payload;
      if (payload.say === "api_request") loadedAtFirstRequest ??= loadedShellParser() !== undefined;
    },
  });
  try {
    expect(loadedShellParser()).toBeUndefined();
    expect((await session.run("Look around.")).status).toBe("completed");
    expect(loadedAtFirstRequest).toBe(false);
    expect(leftToHost).toEqual([]);
    expect(loadedShellParser()).toBeDefined();
    // The command ran: its output (package.json's first line counted) came back, not a denial.
    const messages = (server.requests[1]!.body as { messages: Array<{ content: unknown }> }).messages;
    const toolResult = JSON.stringify(messages.at(-1)!.content);
    expect(toolResult).not.toContain("Denied");
    expect(toolResult).toContain("README.md");
  } finally {
    await session.close();
  }
});

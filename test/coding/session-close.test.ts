/**
 * Closing a session while its task works (the person leaves, `/clear`, `/resume`) stops the
 * task and waits for it: the running command is killed, the task's last records are written
 * before the journal closes, and the task loads again as it was left.
 */
import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";
import { createTaskSession } from "../../src/coding/controller.js";
import { loadSession } from "../../src/coding/session/load-session.js";
import type { Event } from "../../src/protocol/index.js";
import { makeWorkspace } from "../support/cli.js";
import { fakeAnthropicConfig } from "../support/fake-model-server.js";
import { fakeServersClosedAfterEach } from "../support/servers.js";

const startFakeModelServer = fakeServersClosedAfterEach();

const running = (pattern: string) => {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim() !== "";
  } catch {
    return false; // pgrep exits 1 when nothing matches
  }
};

it("stops a running command, waits for the task, and leaves a journal that loads", async () => {
  const command = "sleep 37.25";
  const server = await startFakeModelServer({
    script: [{ toolCalls: [{ name: "execute_command", input: { command, timeout: 120 } }] }],
  });
  const { repo, home } = makeWorkspace();
  let commandShown!: () => void;
  const shown = new Promise<void>((resolve) => {
    commandShown = resolve;
  });
  const session = await createTaskSession({
    cwd: repo,
    home,
    modelConfig: fakeAnthropicConfig(server.url),
    policy: () => ({ type: "allow" }),
    interactive: true,
    checkpoints: false,
    emit(event: Event) {
      if (event.type === "ui_message_updated" || event.type === "ui_message_added") {
        const message = event.message;
        if (
          message.type === "say" &&
          message.payload.say === "tool" &&
          message.payload.tool === "execute_command"
        )
          commandShown();
      }
    },
  });
  const outcome = session.run("Wait a while.");
  await shown;
  // The command is running once its process shows up.
  for (let i = 0; i < 100 && !running(command); i++) await new Promise((r) => setTimeout(r, 20));
  expect(running(command)).toBe(true);
  await session.close();
  expect((await outcome).status).toBe("aborted");
  expect(running(command)).toBe(false);
  const loaded = loadSession(home, session.task.id);
  expect(loaded.warnings ?? []).toEqual([]);
  const tool = loaded.ui.find(
    (message) =>
      message.type === "say" && message.payload.say === "tool" && message.payload.tool === "execute_command",
  );
  expect(
    tool && tool.type === "say" && tool.payload.say === "tool" ? tool.payload.status : undefined,
  ).not.toBe("pending");
});

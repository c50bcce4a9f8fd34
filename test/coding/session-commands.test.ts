/** The session commands of the protocol and "approve always", answered by a live task session. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ApprovalPolicy } from "../../src/agent/approval.js";
import { createTaskSession, type TaskSession } from "../../src/coding/controller.js";
import { rememberedRulesPath } from "../../src/coding/safety/remembered-rules.js";
import { lookupModel } from "../../src/llm/catalogue.js";
import type { Event } from "../../src/protocol/index.js";
import { makeWorkspace } from "../support/cli.js";
import { fakeAnthropicConfig, type ScriptedTurn } from "../support/fake-model-server.js";
import { fakeServersClosedAfterEach } from "../support/servers.js";

const startFakeModelServer = fakeServersClosedAfterEach();

/** Asks for everything the rules leave open, as the interactive hosts do. */
const ask: ApprovalPolicy = () => ({ type: "ask" });

const write = (path: string): ScriptedTurn => ({
  toolCalls: [{ name: "write_to_file", input: { path, content: `// ${path}\n` } }],
});
const done: ScriptedTurn = { toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] };

/**
 * A session whose asks are answered by `answer` (by the tool call's path) and whose events are
 * kept; `next(type)` resolves with the next event of a type.
 */
async function open(
  workspace: { repo: string; home: string },
  script: ScriptedTurn[],
  answer: (path: string) => { response: "approve" | "deny"; remember?: string },
  extra: Partial<Parameters<typeof createTaskSession>[0]> = {},
) {
  const server = await startFakeModelServer({ script });
  const events: Event[] = [];
  const waiters: Array<{ type: string; resolve(e: Event): void }> = [];
  let session: TaskSession | undefined;
  session = await createTaskSession({
    cwd: workspace.repo,
    home: workspace.home,
    modelConfig: fakeAnthropicConfig(server.url),
    policy: ask,
    interactive: true,
    checkpoints: false,
    ...extra,
    emit(event) {
      events.push(event);
      const i = waiters.findIndex((w) => w.type === event.type);
      if (i >= 0) waiters.splice(i, 1)[0]!.resolve(event);
      if (
        event.type === "ask" &&
        event.message.type === "ask" &&
        event.message.payload.ask === "tool_approval"
      ) {
        const input = event.message.payload.input as { path: string };
        const id = event.message.id;
        queueMicrotask(() => session!.dispatch({ type: "answer", askId: id, ...answer(input.path) }));
      }
    },
  });
  const next = <T extends Event["type"]>(type: T) =>
    new Promise<Extract<Event, { type: T }>>((resolve) =>
      waiters.push({ type, resolve: resolve as (e: Event) => void }),
    );
  const asked = () =>
    events.flatMap((e) =>
      e.type === "ask" && e.message.type === "ask" && e.message.payload.ask === "tool_approval"
        ? [(e.message.payload.input as { path: string }).path]
        : [],
    );
  const notices = () =>
    events.flatMap((e) =>
      e.type === "ui_message_added" && e.message.type === "say" && e.message.payload.say === "notice"
        ? [e.message.payload.text]
        : [],
    );
  return { session, next, asked, notices, server };
}

describe("approve always", () => {
  it("remembers the rule for the workspace: not asked again, here or in a later session; other calls still ask", async () => {
    const workspace = makeWorkspace();
    const first = await open(
      workspace,
      [write("src/a.ts"), write("src/b.ts"), write("lib/c.ts"), done],
      (path) =>
        path === "src/a.ts"
          ? { response: "approve", remember: "write_to_file(src/**)" }
          : { response: path.startsWith("lib/") ? "deny" : "approve" },
    );
    try {
      expect((await first.session.run("Write the files.")).status).toBe("completed");
      expect(first.asked()).toEqual(["src/a.ts", "lib/c.ts"]);
      expect(existsSync(join(workspace.repo, "src/b.ts"))).toBe(true);
      expect(existsSync(join(workspace.repo, "lib/c.ts"))).toBe(false);
      expect(first.notices()).toContain("Remembered for this workspace: allow write_to_file(src/**).");
      const rules = first.next("rules_listed");
      first.session.dispatch({ type: "list_rules" });
      expect((await rules).rules).toContainEqual({
        action: "allow",
        rule: "write_to_file(src/**)",
        source: "remembered for this workspace",
      });
    } finally {
      await first.session.close();
    }
    const store = rememberedRulesPath(workspace.home);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(readFileSync(store, "utf8")).toContain("write_to_file(src/**)");

    const second = await open(workspace, [write("src/d.ts"), done], () => ({ response: "deny" }));
    try {
      expect((await second.session.run("One more.")).status).toBe("completed");
      expect(second.asked()).toEqual([]);
      expect(existsSync(join(workspace.repo, "src/d.ts"))).toBe(true);
    } finally {
      await second.session.close();
    }
  });

  it("refuses to remember a rule that would allow every command, and says so", async () => {
    const workspace = makeWorkspace();
    const { session, notices } = await open(workspace, [write("x.ts"), done], () => ({
      response: "approve",
      remember: "execute_command",
    }));
    try {
      await session.run("Write x.");
      expect(notices().some((n) => n.startsWith("Not remembered:") && n.includes("every call"))).toBe(true);
      expect(existsSync(rememberedRulesPath(workspace.home))).toBe(false);
    } finally {
      await session.close();
    }
  });
});

describe("session commands", () => {
  it("list_tasks lists the workspace's stored tasks, this one marked", async () => {
    const workspace = makeWorkspace();
    const { session, next } = await open(workspace, [done], () => ({ response: "approve" }));
    try {
      await session.run("A small task.");
      const listed = next("tasks_listed");
      session.dispatch({ type: "list_tasks" });
      const { tasks } = await listed;
      expect(tasks).toEqual([
        expect.objectContaining({ id: session.task.id, title: "A small task.", current: true }),
      ]);
    } finally {
      await session.close();
    }
  });

  it("set_model switches the model of the next request; get_context reports what fills the window", async () => {
    const workspace = makeWorkspace();
    const { session, next, server } = await open(workspace, [done, done], () => ({ response: "approve" }));
    try {
      await session.run("First.");
      const changed = next("model_changed");
      session.dispatch({ type: "set_model", model: "claude-opus-4-5" });
      expect(await changed).toMatchObject({ provider: "anthropic", model: "claude-opus-4-5" });
      const state = next("state");
      session.dispatch({ type: "send_message", text: "Second." });
      expect((await state).model).toBe("claude-opus-4-5");
      await server.waitForRequests(2);
      expect((server.requests[0]!.body as any).model).toBe("m");
      expect((server.requests[1]!.body as any).model).toBe("claude-opus-4-5");

      const reported = next("context_report");
      session.dispatch({ type: "get_context" });
      const { report } = await reported;
      const names = report.parts.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["system prompt", "tools", "user messages"]));
      expect(report.estimatedTokens).toBe(report.parts.reduce((sum, p) => sum + p.tokens, 0));
      expect(report.contextWindow).toBeGreaterThan(100_000);
    } finally {
      await session.close();
    }
  });

  it("a continued task keeps the model it was switched to", async () => {
    const workspace = makeWorkspace();
    const first = await open(workspace, [done], () => ({ response: "approve" }));
    try {
      await first.session.run("First.");
      const changed = first.next("model_changed");
      first.session.dispatch({ type: "set_model", model: "claude-opus-4-5" });
      await changed;
    } finally {
      await first.session.close();
    }
    const again = await open(workspace, [done], () => ({ response: "approve" }), {
      continueFrom: { taskId: first.session.task.id },
    });
    try {
      await again.session.run("Go on.");
      expect((again.server.requests[0]!.body as any).model).toBe("claude-opus-4-5");
      expect(again.notices()).toContain(
        "Continuing with claude-opus-4-5, the model this task was switched to.",
      );
    } finally {
      await again.session.close();
    }
  });

  it("set_model with a provider that has no key fails with a message, and the model stays", async () => {
    const workspace = makeWorkspace();
    const { session, next } = await open(workspace, [done], () => ({ response: "approve" }));
    try {
      const failed = next("command_failed");
      session.dispatch({ type: "set_model", model: "xai:grok-5" });
      expect((await failed).message).toMatch(/xai|XAI_API_KEY|key/i);
    } finally {
      await session.close();
    }
  });
});

describe("attached images", () => {
  const image = { mediaType: "image/png" as const, data: "iVBORw0KGgo=" };

  it("reach a model that takes images as image blocks of the first message", async () => {
    const { session, server } = await open(makeWorkspace(), [done], () => ({ response: "approve" }), {
      modelInfo: { ...lookupModel("anthropic", "m").info, supportsImages: true },
    });
    try {
      await session.run("What is on this screen?", [image]);
      const content = (server.requests[0]!.body as any).messages[0].content;
      expect(content).toContainEqual(
        expect.objectContaining({
          type: "image",
          source: { type: "base64", media_type: "image/png", data: image.data },
        }),
      );
    } finally {
      await session.close();
    }
  });

  it("are left out for a model that takes none, and the model is told", async () => {
    const { session, server } = await open(makeWorkspace(), [done], () => ({ response: "approve" }), {
      modelInfo: { ...lookupModel("anthropic", "m").info, supportsImages: false },
    });
    try {
      await session.run("What is on this screen?", [image]);
      const body = JSON.stringify(server.requests[0]!.body);
      expect(body).not.toContain(image.data);
      expect(body).toContain("this model does not take images, so they were left out");
    } finally {
      await session.close();
    }
  });
});

/**
 * MCP in a task session wired as the CLI wires it (the session opens the hub from
 * `~/.bowline/mcp.json`): servers start with the first model request, never before it; a server
 * that never answers does not hold that request up; a slow server's tools and instructions join
 * a later request; the MCP commands are answered through `dispatch`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNonInteractivePolicy } from "../../../src/coding/approval-rules.js";
import { createTaskSession, type TaskSession } from "../../../src/coding/controller.js";
import { startAtFirstRequest } from "../../../src/coding/first-request.js";
import { parseServer } from "../../../src/coding/mcp/config.js";
import { capInstructions, MAX_SERVER_INSTRUCTIONS } from "../../../src/coding/mcp/instructions.js";
import { createMcpHub, type RunningMcpHub } from "../../../src/coding/mcp/mcp-hub.js";
import { createModelClient } from "../../../src/llm/create-client.js";
import type { Event } from "../../../src/protocol/index.js";
import type { McpServerSummary } from "../../../src/protocol/mcp-commands.js";
import { makeWorkspace } from "../../support/cli.js";
import type { RecordedRequest } from "../../support/fake-model-script.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../../support/fake-model-server.js";
import { EVERYTHING, testServerEntry, waitFor } from "./support.js";

let model: FakeModelServer | undefined;
let session: TaskSession | undefined;
let hub: RunningMcpHub | undefined;
afterEach(async () => {
  await session?.close();
  await model?.close();
  await hub?.close();
  session = model = hub = undefined;
});

const INSTRUCTIONS = "Greet people with slow__mcp__echo.";

/** A session whose home configures `servers` (and `extra` keys of mcp.json); its events. */
async function openSession(
  servers: Record<string, unknown>,
  script: ScriptedTurn[],
  extra: Record<string, unknown> = {},
) {
  model = await startFakeModelServer({ script });
  const { repo, home } = makeWorkspace();
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: servers, ...extra }));
  const client = await createModelClient({
    provider: "anthropic",
    wireFormat: "anthropic-messages",
    model: "fake-model",
    apiKey: "k",
    baseUrl: model.url,
    maxRetries: 0,
  });
  const events: Event[] = [];
  session = await createTaskSession({
    cwd: repo,
    modelConfig: client.config,
    model: client,
    home,
    policy: createNonInteractivePolicy({ yes: true, allow: [] }),
    interactive: true,
    emit: (event) => events.push(event),
  });
  return { session, events };
}

const toolNames = (request: RecordedRequest) =>
  (request.body.tools as Array<{ name: string }>).map((tool) => tool.name);
const systemOf = (request: RecordedRequest) => JSON.stringify(request.body.system);

/** The servers as `list_mcp_servers` answers through the session now. */
function listServers(current: TaskSession, events: Event[]): McpServerSummary[] {
  current.dispatch({ type: "list_mcp_servers" });
  const answer = events.findLast((event) => event.type === "mcp_servers");
  if (answer?.type !== "mcp_servers") throw new Error("list_mcp_servers was not answered");
  return answer.servers;
}

describe("starting servers with the first model request", () => {
  const announcement: Event = {
    type: "ui_message_added",
    message: { id: "m1", ts: 1, type: "say", payload: { say: "api_request", index: 0 } },
  };
  const reply: Event = {
    type: "ui_message_added",
    message: { id: "m2", ts: 2, type: "say", payload: { say: "text", text: "Hi" }, partial: true },
  };

  it("starts them once the first request has gone out: at the first event after its announcement", () => {
    let starts = 0;
    const passed: Event[] = [];
    const emit = startAtFirstRequest({ start: () => starts++ }, (event) => passed.push(event));
    emit(reply);
    emit(announcement);
    expect(starts).toBe(0);
    emit(reply);
    emit(announcement);
    emit(reply);
    expect(starts).toBe(1);
    expect(passed).toEqual([reply, announcement, reply, announcement, reply]);
  });

  it("starts them anyway when the model is slow to answer", async () => {
    let starts = 0;
    const emit = startAtFirstRequest({ start: () => starts++ }, () => {}, 20);
    emit(announcement);
    expect(starts).toBe(0);
    await waitFor(() => starts === 1);
    emit(reply);
    expect(starts).toBe(1);
  });

  it("sends the first request while a hung server is starting; a slow server's tools and instructions join the next", async () => {
    const { session, events } = await openSession(
      {
        hung: testServerEntry(["--hang"]),
        slow: testServerEntry(["--slow", "300", "--instructions", INSTRUCTIONS]),
      },
      [
        { toolCalls: [{ name: "ask_followup_question", input: { question: "Ready?" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
    );
    const run = session.run("Say hello.");
    await model!.waitForRequests(1, 20_000);
    const first = model!.requests[0]!;
    expect(toolNames(first).some((name) => name.includes("__mcp__"))).toBe(false);
    expect(systemOf(first)).not.toContain("MCP server instructions");
    expect(listServers(session, events).map((s) => [s.name, s.status])).toEqual([
      ["hung", "starting"],
      ["slow", "starting"],
    ]);

    await waitFor(() => listServers(session, events)[1]!.status === "connected", 20_000);
    const ask = events.find((event) => event.type === "ask")!;
    if (ask.type !== "ask") throw new Error("no ask");
    session.dispatch({ type: "answer", askId: ask.message.id, response: "message", text: "yes" });
    expect(await run).toMatchObject({ status: "completed" });

    const second = model!.requests[1]!;
    expect(toolNames(second)).toEqual(expect.arrayContaining(["slow__mcp__echo", "slow__mcp__sleep"]));
    expect(toolNames(second).some((name) => name.startsWith("hung__"))).toBe(false);
    expect(systemOf(second)).toContain(`# MCP server instructions`);
    expect(systemOf(second)).toContain(`## slow\\n${INSTRUCTIONS}`);
    expect(listServers(session, events)[0]!.status).toBe("starting");
  });

  it("offers use_mcp_tool while servers start: a call to a starting server waits for it", async () => {
    const { session } = await openSession(
      { slow: testServerEntry(["--slow", "300", "--instructions", INSTRUCTIONS]) },
      [
        {
          toolCalls: [
            {
              name: "use_mcp_tool",
              input: { server_name: "slow", tool_name: "echo", arguments: { text: "hello" } },
            },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
    );
    expect(await session.run("Say hello.")).toMatchObject({ status: "completed" });
    const [first, second] = model!.requests;
    const useMcp = (first!.body.tools as Array<{ name: string; description: string }>).find(
      (tool) => tool.name === "use_mcp_tool",
    );
    expect(useMcp?.description).toContain("Still starting: slow");
    expect(toolNames(first!)).toContain("search_mcp_tools");
    expect(JSON.stringify(second!.body.messages.at(-1))).toContain("echo: hello");
    expect(toolNames(second!)).toContain("slow__mcp__echo");
    expect(toolNames(second!)).not.toContain("use_mcp_tool");
    expect(systemOf(second!)).toContain(INSTRUCTIONS);
  });

  it("answers get_mcp_prompt through dispatch", async () => {
    const { session, events } = await openSession({ test: testServerEntry() }, []);
    session.dispatch({
      type: "get_mcp_prompt",
      server: "test",
      prompt: "review",
      arguments: { file: "x.ts" },
    });
    await waitFor(() => events.some((event) => event.type === "mcp_prompt"), 20_000);
    expect(events.find((event) => event.type === "mcp_prompt")).toMatchObject({
      text: "Please review x.ts.",
    });
  });
});

describe("server instructions", () => {
  it("keeps a published server's instructions (server-everything) and cuts long ones", async () => {
    const parsed = parseServer("everything", { command: EVERYTHING, args: ["stdio"] }, "user", "t", {});
    if ("message" in parsed) throw new Error(parsed.message);
    const long = "x".repeat(MAX_SERVER_INSTRUCTIONS + 500);
    const verbose = parseServer("verbose", testServerEntry(["--instructions", long]), "user", "t", {});
    if ("message" in verbose) throw new Error(verbose.message);
    hub = createMcpHub({
      config: { servers: [parsed, verbose], problems: [], lazySchemas: "auto" },
      cwd: process.cwd(),
    });
    hub.start();
    await hub.whenSettled();
    const [everything, cut] = hub.listServers();
    expect(everything!.instructions).toMatch(/^# Everything Server/);
    expect(cut!.instructions).toBe(capInstructions(long));
    expect(cut!.instructions).toMatch(/^x{2000}\n\[\.\.\. cut at 2000 characters\]$/);
  });
});

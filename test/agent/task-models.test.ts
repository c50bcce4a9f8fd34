/**
 * Switching the act-mode model while a task runs (`setModel`): the next request goes to the new
 * model (a real second fake server), the `state` event names it, its prices count, the journal
 * records the switch, and a plan-mode model stays in plan mode.
 */
import { describe, expect, it } from "vitest";
import { createDefaultApprovalPolicy } from "../../src/agent/approval.js";
import type { ApiJournalRecord, ApiModelRecord, SessionJournal } from "../../src/agent/journal.js";
import { createTask } from "../../src/agent/task.js";
import { createModelClient } from "../../src/llm/create-client.js";
import type { ModelClient, ModelInfo } from "../../src/llm/types.js";
import type { Event } from "../../src/protocol/index.js";
import type { FakeModelServer, ScriptedTurn } from "../support/fake-model-server.js";
import { fakeServersClosedAfterEach } from "../support/servers.js";
import { createTestTools, finishTurn } from "./task-harness.js";

const startFakeModelServer = fakeServersClosedAfterEach();

async function modelAt(name: string, script: ScriptedTurn[]): Promise<[ModelClient, FakeModelServer]> {
  const server = await startFakeModelServer({ script });
  const client = await createModelClient({
    provider: "anthropic",
    wireFormat: "anthropic-messages",
    model: name,
    apiKey: "sk-ant-test",
    baseUrl: server.url,
    maxRetries: 0,
  });
  return [client, server];
}

function memoryJournal(): SessionJournal & { api: Array<ApiJournalRecord | ApiModelRecord> } {
  const api: Array<ApiJournalRecord | ApiModelRecord> = [];
  return {
    api,
    appendApi: (record) => api.push(record),
    appendUi: () => {},
    sync: async () => {},
    close: async () => {},
  };
}

const info = (contextWindow: number, prices?: ModelInfo["prices"]): ModelInfo => ({
  contextWindow,
  maxOutputTokens: 4096,
  supportsImages: false,
  supportsNativeTools: true,
  prices,
});

function taskWith(model: ModelClient, extra: Partial<Parameters<typeof createTask>[0]> = {}) {
  const events: Event[] = [];
  const journal = memoryJournal();
  const task = createTask({
    taskId: "task-models",
    model,
    tools: createTestTools([]),
    systemPrompt: "You are under test.",
    policy: createDefaultApprovalPolicy({ allowAll: true }),
    emit: (event) => events.push(event),
    interactive: false,
    journal,
    ...extra,
  });
  return { task, events, journal };
}

const stateModels = (events: Event[]) => events.flatMap((e) => (e.type === "state" ? [e.model] : []));

describe("setModel", () => {
  it("sends the next request to the new model, names it in the next state event and journals it", async () => {
    const million = { inputTokens: 1_000_000, outputTokens: 0 };
    const [first, firstServer] = await modelAt("model-one", [{ ...finishTurn("one"), usage: million }]);
    const [second, secondServer] = await modelAt("model-two", [{ ...finishTurn("two"), usage: million }]);
    const { task, events, journal } = taskWith(first);

    expect(await task.start("First.")).toEqual({ status: "completed", result: "one" });
    const before = events.length;
    task.setModel(second, info(50_000, { input: 2, output: 8 }));
    expect(events[before]).toMatchObject({ type: "state", model: "model-two", status: "completed" });
    expect(await task.send("Second.")).toEqual({ status: "completed", result: "two" });

    expect(firstServer.requests).toHaveLength(1);
    expect(secondServer.requests).toHaveLength(1);
    expect(secondServer.requests[0]!.body.model).toBe("model-two");
    // The whole conversation goes to the new model.
    expect(secondServer.requests[0]!.body.messages).toHaveLength(4);
    expect(stateModels(events.slice(before))).toEqual(["model-two", "model-two", "model-two"]);
    // Only the new model has prices: its million input tokens cost $2, the first model's nothing.
    expect(task.usage).toMatchObject({ inputTokens: 2_000_000 });
    expect(events.findLast((e) => e.type === "task_completed")).toMatchObject({
      usage: { costUsd: 2 },
    });
    // The switch sits between the first run's entries and the second's.
    const types = journal.api.map((record) => record.type);
    expect(types).toEqual(["message", "message", "message", "model", "message", "message", "message"]);
    expect(journal.api[3]).toMatchObject({ v: 2, type: "model", provider: "anthropic", model: "model-two" });
    // The context report uses the new model's window.
    expect(task.contextReport().contextWindow).toBe(50_000);
  });

  it("leaves a plan-mode model in place", async () => {
    const [act] = await modelAt("act-one", []);
    const [plan, planServer] = await modelAt("planner", [finishTurn("planned")]);
    const [switched, switchedServer] = await modelAt("act-two", [finishTurn("acted")]);
    const { task, events } = taskWith(act, { planModel: plan, mode: "plan" });

    task.setModel(switched, info(100_000));
    expect(stateModels(events)).toEqual(["planner"]);
    expect(await task.start("Plan it.")).toEqual({ status: "completed", result: "planned" });
    task.setMode("act");
    expect(stateModels(events).at(-1)).toBe("act-two");
    expect(await task.send("Now do it.")).toEqual({ status: "completed", result: "acted" });

    expect(planServer.requests).toHaveLength(1);
    expect(switchedServer.requests).toHaveLength(1);
  });
});

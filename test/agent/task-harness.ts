/**
 * Runs the agent loop in-process: `createTask` with the real Anthropic adapter talking to the
 * fake model server, and small tools built on the real ToolHandler seam (a zod schema and an
 * execute function) that record what they were asked to do.
 */
import { z } from "zod";
import { type ApprovalPolicy, createDefaultApprovalPolicy } from "../../src/agent/approval.js";
import type { TaskLimits } from "../../src/agent/limits.js";
import type { RetryPolicy } from "../../src/agent/retry.js";
import { createTask, type Task } from "../../src/agent/task.js";
import type { ToolHandler } from "../../src/agent/tool.js";
import { createCondenseTool } from "../../src/coding/tools/condense.js";
import { createModelClient } from "../../src/llm/create-client.js";
import type { ModelPrices } from "../../src/llm/types.js";
import type { Event } from "../../src/protocol/index.js";
import {
  type FakeModelServer,
  type RecordedRequest,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";

/** Calls the tools received, in order: `name:argument`. */
export type CallLog = string[];

export function createTestTools(log: CallLog): ToolHandler[] {
  const echo: ToolHandler<{ text: string }> = {
    name: "echo",
    description: "Echoes the text back.",
    inputSchema: z.object({ text: z.string() }),
    mutates: false,
    summarize: (input) => `echo ${input.text}`,
    async execute(input) {
      log.push(`echo:${input.text}`);
      return { content: `echo: ${input.text}` };
    },
  };
  const fail: ToolHandler<{ why: string }> = {
    name: "fail",
    description: "Always fails, as a tool the model used wrongly would.",
    inputSchema: z.object({ why: z.string() }),
    mutates: false,
    summarize: () => "fail",
    async execute(input) {
      log.push(`fail:${input.why}`);
      return { content: `failed because ${input.why}`, isError: true };
    },
  };
  const boom: ToolHandler<Record<string, never>> = {
    name: "boom",
    description: "Throws.",
    inputSchema: z.object({}),
    mutates: false,
    summarize: () => "boom",
    async execute() {
      log.push("boom");
      throw new Error("kaboom");
    },
  };
  const save: ToolHandler<{ name: string }> = {
    name: "save",
    description: "Saves a file (mutates, so it needs approval).",
    inputSchema: z.object({ name: z.string() }),
    mutates: true,
    summarize: (input) => `save ${input.name}`,
    async execute(input) {
      log.push(`save:${input.name}`);
      return { content: `saved ${input.name}` };
    },
  };
  const wait: ToolHandler<{ ms: number }> = {
    name: "wait",
    description: "Waits, stopping early when the task is aborted.",
    inputSchema: z.object({ ms: z.number() }),
    mutates: false,
    summarize: (input) => `wait ${input.ms}`,
    execute(input, ctx) {
      log.push(`wait:${input.ms}`);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: "waited" }), input.ms);
        ctx.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve({ content: "stopped: aborted", isError: true });
        });
      });
    },
  };
  const finish: ToolHandler<{ result: string }> = {
    name: "finish",
    description: "Ends the task with a result.",
    inputSchema: z.object({ result: z.string() }),
    mutates: false,
    // Like attempt_completion: it ends the task, so it never runs beside other calls.
    category: "none",
    summarize: (input) => `finish ${input.result}`,
    async execute(input) {
      log.push(`finish:${input.result}`);
      return { content: "presented", completion: { result: input.result } };
    },
  };
  return [echo, fail, boom, save, wait, finish];
}

export const call = (name: string, input: unknown, id?: string) => ({ name, input, ...(id ? { id } : {}) });
export const finishTurn = (result = "done"): ScriptedTurn => ({ toolCalls: [call("finish", { result })] });

export interface Harness {
  server: FakeModelServer;
  task: Task;
  events: Event[];
  log: CallLog;
  /** Resolves with the first event (already emitted or still to come) that matches. */
  nextEvent(match: (event: Event) => boolean, timeoutMs?: number): Promise<Event>;
}

export interface HarnessOptions {
  interactive?: boolean;
  policy?: ApprovalPolicy;
  maxConsecutiveMistakes?: number;
  retry?: RetryPolicy;
  /** Offer no tools at all (plain chat). */
  noTools?: boolean;
  /** Give the task the condense tool (manual compaction with `/compact`). */
  condense?: boolean;
  streamIdleTimeoutMs?: number;
  prices?: ModelPrices;
  /** The fake server counts cached input from the breakpoints (Anthropic's rules). */
  promptCache?: boolean;
  systemPrompt?: string;
  limits?: TaskLimits;
  modelInfo?: { contextWindow: number; maxOutputTokens: number };
  /** Tools besides the test tools. */
  extraTools?: ToolHandler[];
  mode?: "plan" | "act";
}

const servers: FakeModelServer[] = [];

export async function startHarness(
  script: ScriptedTurn[] | ((request: RecordedRequest, index: number) => ScriptedTurn | undefined),
  options: HarnessOptions = {},
): Promise<Harness> {
  const server = await startFakeModelServer({ script, promptCache: options.promptCache });
  servers.push(server);
  const model = await createModelClient({
    provider: "anthropic",
    wireFormat: "anthropic-messages",
    model: "fake-model",
    apiKey: "sk-ant-harness-key",
    baseUrl: server.url,
    maxRetries: 0,
  });
  const events: Event[] = [];
  const watchers = new Set<(event: Event) => void>();
  const log: CallLog = [];
  const task = createTask({
    taskId: "task-1",
    model,
    tools: options.noTools ? [] : [...createTestTools(log), ...(options.extraTools ?? [])],
    mode: options.mode,
    condenseTool: options.condense ? createCondenseTool() : undefined,
    systemPrompt: options.systemPrompt ?? "You are under test.",
    policy: options.policy ?? createDefaultApprovalPolicy({ allowAll: false }),
    emit(event) {
      events.push(event);
      for (const watch of watchers) watch(event);
    },
    interactive: options.interactive ?? false,
    maxConsecutiveMistakes: options.maxConsecutiveMistakes,
    retry: options.retry ?? { attempts: 2, baseDelayMs: 1, maxDelayMs: 1000 },
    streamIdleTimeoutMs: options.streamIdleTimeoutMs,
    prices: options.prices,
    limits: options.limits,
    modelInfo: options.modelInfo,
  });
  const nextEvent = (match: (event: Event) => boolean, timeoutMs = 5000) =>
    new Promise<Event>((resolve, reject) => {
      const found = events.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => {
        watchers.delete(watch);
        reject(new Error(`no matching event within ${timeoutMs} ms`));
      }, timeoutMs);
      const watch = (event: Event) => {
        if (!match(event)) return;
        clearTimeout(timer);
        watchers.delete(watch);
        resolve(event);
      };
      watchers.add(watch);
    });
  return { server, task, events, log, nextEvent };
}

export async function closeHarnesses(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

/** The tool results (Anthropic wire format) at the end of a recorded request. */
export function resultsSent(request: RecordedRequest): Array<{ id: string; text: string; isError: boolean }> {
  const last = request.body.messages.at(-1);
  return last.content
    .filter((block: any) => block.type === "tool_result")
    .map((block: any) => ({
      id: block.tool_use_id,
      text: block.content.map((part: any) => part.text).join("\n"),
      isError: block.is_error === true,
    }));
}

/** The ids of the tool calls in the last assistant message of a recorded request. */
export function callsSent(request: RecordedRequest): string[] {
  const assistant = request.body.messages.findLast((m: any) => m.role === "assistant");
  return assistant.content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id);
}

/** The statuses of the task's `state` events, in order. */
export function statuses(events: Event[]): string[] {
  return events.flatMap((event) => (event.type === "state" ? [event.status] : []));
}

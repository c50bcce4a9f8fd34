import type { ContentBlock, LlmMessage, ModelClient, ModelInfo, ModelPrices } from "../llm/types.js";
import type { ErrorCode, Event, TaskStatus } from "../protocol/index.js";
import type { ApprovalPolicy } from "./approval.js";
import { type ContextReport, contextReport } from "./context/index.js";
import { createFocusChain } from "./focus-chain.js";
import type { SessionJournal } from "./journal.js";
import { createJournalSync } from "./journal-sync.js";
import type { TaskLimits } from "./limits.js";
import { createMessageStore, type StoredSession } from "./message-store.js";
import type { Coordinator } from "./pipeline/coordinator.js";
import type { HookRunner } from "./pipeline/hooks.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.js";
import { type AskAnswer, createAskChannel } from "./task-asks.js";
import { runPromptHooks } from "./task-hooks.js";
import { createInterjections } from "./task-interjections.js";
import { createTaskGuard } from "./task-mistakes.js";
import { createTaskMode, type TaskMode } from "./task-mode.js";
import { createTaskModels } from "./task-models.js";
import { createTaskOffer } from "./task-offer.js";
import * as prompts from "./task-prompts.js";
import { createRequester } from "./task-requests.js";
import { interruptedCalls, rewindToCheckpoint } from "./task-resume.js";
import { runReplyToolCalls } from "./task-tool-calls.js";
import { addUsage, type PricedUsage, ZERO_USAGE } from "./task-util.js";
import type { ToolHandler } from "./tool.js";
import { createToolExecutor, type ToolCallRequest } from "./tool-executor.js";
import { coordinatorFor, nativeOffer, type ToolOffer } from "./tool-offer.js";
import type { UiMessageLog } from "./ui-messages.js";

export interface TaskOptions {
  taskId: string;
  model: ModelClient;
  /** The model for plan mode, when it differs from the act-mode `model`. */
  planModel?: ModelClient;
  tools: readonly ToolHandler[];
  systemPrompt: string;
  policy: ApprovalPolicy;
  emit(event: Event): void;
  journal?: SessionJournal;
  /** When false, nobody answers asks: follow-up questions get a canned answer and the mistake limit fails the task. */
  interactive: boolean;
  maxConsecutiveMistakes?: number;
  /** Retries of a failed request (retryable errors only), with exponential back-off. */
  retry?: RetryPolicy;
  /** A stream silent this long is abandoned and retried (default five minutes). */
  streamIdleTimeoutMs?: number;
  /** The model's prices, to report the cost of each request and of the task. */
  prices?: ModelPrices;
  /** The plan-mode model's prices. */
  planPrices?: ModelPrices;
  /** The model's context window and output limit, for the context manager (default: 128k / 8k). */
  modelInfo?: Pick<ModelInfo, "contextWindow" | "maxOutputTokens">;
  planModelInfo?: Pick<ModelInfo, "contextWindow" | "maxOutputTokens">;
  /** The share of the usable window at which the history is compacted (default 0.8). */
  contextThreshold?: number;
  /** Plan mode refuses edits and mutating commands; act mode (default) runs them. */
  mode?: TaskMode;
  /** Routes names to handlers; default: one built from `tools`. */
  coordinator?: Coordinator;
  /** Default: native, with definitions generated from `tools`. */
  toolOffer?: ToolOffer;
  hooks?: HookRunner;
  /** Whether a mutating call may still run in plan mode (e.g. a read-only command). */
  allowedInPlanMode?: (tool: ToolHandler, input: unknown) => boolean;
  /** Stops the task (code `budget_exhausted`) once input + output tokens pass this. */
  tokenBudget?: number;
  /** Budgets that pause the task with a question (interactive) or stop it (code `budget_exhausted`). */
  limits?: TaskLimits;
  /** Keeps the model's `task_progress` checklist (the tools must accept that parameter). */
  focusChain?: boolean;
  /** Manual compaction: offered for the turn after the person sends `/compact [focus]`. */
  condenseTool?: ToolHandler;
  /** Awaited before a mutating tool runs (the baseline checkpoint). */
  beforeMutation?: () => Promise<void>;
  /**
   * Called after each reply's tool calls ran, before the next request: `mutated` when any of them
   * could have changed files; `entryId` is the journal entry of the reply that made the calls.
   */
  onStep?: (step: { mutated: boolean; entryId: string | undefined; turn: number }) => Promise<void>;
  /** A task loaded from its journal, continued with `resume`. */
  resume?: StoredSession & { turns?: number; usage?: PricedUsage; taskText?: string };
}

export type { TaskMode };

export type TaskOutcome =
  | { status: "completed"; result: string }
  | { status: "failed"; code: ErrorCode; message: string }
  | { status: "aborted" };

export type { AskAnswer };

/**
 * One task: the agent loop. A loop, not recursion: each turn sends the history, streams the
 * reply, runs its tool calls and appends the results, until attempt_completion, abort, the
 * mistake limit or a provider failure ends it.
 */
export function createTask(options: TaskOptions) {
  const retry = options.retry ?? DEFAULT_RETRY;
  const store = createMessageStore({ emit: options.emit, journal: options.journal, resume: options.resume });
  const history = store.history;
  const ui: UiMessageLog = store.ui;
  const coordinator =
    options.coordinator ??
    coordinatorFor(options.condenseTool ? [...options.tools, options.condenseTool] : options.tools);
  const tools = createTaskOffer(options.toolOffer ?? nativeOffer(options.tools), options.condenseTool);
  const focus = options.focusChain ? createFocusChain() : undefined;
  let taskText = options.resume?.taskText ?? "";
  /** The next user message starts a condensed history (journaled as a compaction). */
  let compactionNext = false;
  /** Aborts the current run; replaced when `send` continues an aborted task. */
  let controller = new AbortController();
  const usage: PricedUsage = { ...ZERO_USAGE, ...options.resume?.usage };
  let status: TaskStatus = "idle";
  const mode = createTaskMode(options.mode);
  let turns = options.resume?.turns ?? 0;
  const models = createTaskModels(options, () => mode.current);

  const setStatus = (next: TaskStatus) => {
    status = next;
    options.emit({
      type: "state",
      taskId: options.taskId,
      status,
      usage: { ...usage },
      model: models.current().client.config.model,
      mode: mode.current,
    });
  };

  const journal = createJournalSync(options.journal);

  const appendHistory = (message: LlmMessage) => {
    if (compactionNext) store.replace([message]);
    else store.append(message);
    compactionNext = false;
  };

  const interjections = createInterjections(ui);
  const asks = createAskChannel({
    ui,
    interactive: options.interactive,
    setStatus,
    takeWaitingMessages: () => interjections.deliverAsAnswer(),
  });
  const guard = createTaskGuard({
    maxMistakes: options.maxConsecutiveMistakes ?? 3,
    interactive: options.interactive,
    ask: asks.ask,
    limits: options.limits,
    usage,
    turns: () => turns,
  });

  const executor = createToolExecutor({
    taskId: options.taskId,
    coordinator,
    hooks: options.hooks,
    allowedInPlanMode: options.allowedInPlanMode,
    policy: options.policy,
    ui,
    // Read at each call, so a run continued after an abort gets the fresh signal.
    get signal() {
      return controller.signal;
    },
    getMode: () => mode.current,
    beforeMutation: options.beforeMutation,
    // A subagent's requests count in the task's totals, and its budget.
    spentUsage: (spent) => {
      addUsage(usage, spent);
      setStatus(status);
    },
    requestApproval: asks.requestApproval,
    askUser: asks.askUser,
  });

  const requester = createRequester({
    options,
    store,
    ui,
    usage,
    retry,
    models,
    signal: () => controller.signal,
    turns: () => turns,
    offeredTools: tools.definitions,
    xmlReplyOptions: tools.replyOptions,
  });
  const { requestReply, contextMeter } = requester;

  async function runToolCalls(calls: ToolCallRequest[]) {
    const run = await runReplyToolCalls(calls, {
      executor,
      coordinator,
      ui,
      focus,
      oneCallPerMessage: tools.xml,
      aborted: () => controller.signal.aborted,
    });
    run.notes.push(...guard.recordCalls(run.done));
    return run;
  }

  /**
   * Keeps the results of the last reply's tool calls in the history when the loop stops before
   * sending them, so every call stays paired with its result (and nothing that ran is lost).
   */
  function keepToolResults(pending: ContentBlock[]): void {
    const results = pending.filter(tools.isResult);
    if (results.length > 0) appendHistory({ role: "user", content: results });
  }

  /** A new message from the person: the mistake count starts over, and an abort is behind us. */
  const freshTurn = () => {
    guard.forgiveMistakes();
    if (controller.signal.aborted) controller = new AbortController();
  };

  /** The outcome of the loop running now (start, send or resume), while it runs. */
  let active: Promise<TaskOutcome> | undefined;

  /**
   * Runs one turn of work to its outcome; messages that arrived too late for it (while it
   * stopped or finished) start the next one, so none is left behind.
   */
  function runExclusive(body: () => Promise<TaskOutcome>): Promise<TaskOutcome> {
    active = (async () => {
      try {
        let outcome = await body();
        while (interjections.pending) {
          freshTurn();
          outcome = await finish(await loop(interjections.deliver()));
        }
        return outcome;
      } finally {
        active = undefined;
      }
    })();
    return active;
  }

  async function loop(firstContent: ContentBlock[]): Promise<TaskOutcome> {
    setStatus("running");
    let pending = firstContent;
    while (true) {
      let stop = controller.signal.aborted ? undefined : await guard.checkMistakes(pending);
      // An abort also answers a pending mistake-limit ask; it still ends the task as aborted.
      if (controller.signal.aborted) stop = { status: "aborted" };
      if (stop) {
        keepToolResults(pending);
        return stop;
      }
      if (journal.failure)
        return { status: "failed", code: "storage_error", message: journal.failure.message };
      if (options.tokenBudget !== undefined && usage.inputTokens + usage.outputTokens > options.tokenBudget) {
        keepToolResults(pending);
        const message = `Stopped at the token budget (${options.tokenBudget} tokens).`;
        return { status: "failed", code: "budget_exhausted", message };
      }
      const limit = await guard.checkLimits();
      if (limit) {
        keepToolResults(pending);
        return limit;
      }
      pending = [...pending, ...contextMeter(), ...mode.takeNote()];
      const reminder = focus?.reminder(turns + 1);
      if (reminder) pending = [...pending, { type: "text", text: reminder }];
      appendHistory({ role: "user", content: pending });
      journal.sync();
      turns++;
      const reply = await requestReply();
      if (controller.signal.aborted || reply.stopReason === "aborted") {
        const content = reply.content.filter((block) => block.type !== "tool_call");
        content.push({ type: "text", text: prompts.interruptedByUser });
        appendHistory({ role: "assistant", content });
        return { status: "aborted" };
      }
      if (reply.error) {
        // The request's user message stays in the history (as in the journal): a later `send`
        // carries it, so tool results stay paired with their calls.
        return { status: "failed", code: "provider_error", message: reply.error.message };
      }
      appendHistory({ role: "assistant", content: reply.content });
      if (reply.toolCalls.length === 0 && tools.offersNone()) {
        // Plain chat (a variant with no tools): the reply is the answer.
        const answer = reply.content
          .flatMap((block) => (block.type === "text" ? [block.text] : []))
          .join("\n");
        ui.say({ say: "completion_result", text: answer });
        return { status: "completed", result: answer };
      }
      if (reply.toolCalls.length === 0) {
        if (reply.incompleteToolCall) {
          guard.replyMistake(`the ${reply.incompleteToolCall} call was cut off`);
          ui.say({ say: "notice", text: `The model's ${reply.incompleteToolCall} call was incomplete.` });
          pending = [{ type: "text", text: prompts.incompleteXmlCall(reply.incompleteToolCall) }];
        } else {
          guard.replyMistake("the reply called no tool");
          ui.say({ say: "notice", text: "The model replied without using a tool; reminding it to use one." });
          pending = [{ type: "text", text: prompts.noToolsUsed(tools.xml) }];
        }
        continue;
      }
      const { results, notes, completion, condensed, stopReason } = await runToolCalls(reply.toolCalls);
      if (options.onStep) {
        const mutated = reply.toolCalls.some((call) => coordinator.getHandler(call.name)?.mutates === true);
        await options.onStep({ mutated, entryId: store.entryIds.at(-1), turn: turns });
      }
      pending = tools.resultContent(reply.toolCalls, results, notes);
      tools.offerCondense(false);
      if (condensed !== undefined) {
        // The conversation so far is replaced by the summary; the journal keeps the old records
        // and marks where the condensed history starts.
        ui.say({
          say: "notice",
          text: `Conversation condensed: ${history.length} messages replaced by a summary.`,
        });
        compactionNext = true;
        pending = [{ type: "text", text: prompts.condensedHistory(taskText, condensed) }];
        continue;
      }
      if (completion !== undefined) {
        ui.say({ say: "completion_result", text: completion });
        // A message sent while the model finished goes with the completion's result instead.
        if (interjections.pending) {
          pending = [...pending, ...interjections.deliver()];
          continue;
        }
        appendHistory({ role: "user", content: pending });
        return { status: "completed", result: completion };
      }
      if (stopReason !== undefined) {
        appendHistory({ role: "user", content: pending });
        return { status: "failed", code: "stopped_by_hook", message: stopReason };
      }
      // Not into a stopping loop: what it keeps is only the tool results.
      if (interjections.pending && !controller.signal.aborted)
        pending = [...pending, ...interjections.deliver()];
    }
  }

  const promptHooks = (events: Array<"TaskStart" | "UserPromptSubmit">, prompt: string) =>
    runPromptHooks(
      { hooks: options.hooks, ui, taskId: options.taskId, signal: controller.signal },
      events,
      prompt,
    );

  async function finish(outcome: TaskOutcome): Promise<TaskOutcome> {
    if (outcome.status === "completed" && options.hooks) {
      const done = await options.hooks.run("TaskComplete", {
        taskId: options.taskId,
        result: outcome.result,
      });
      for (const problem of done.problems) ui.say({ say: "notice", text: `Hook problem: ${problem}` });
    }
    if (outcome.status === "completed") {
      options.emit({
        type: "task_completed",
        taskId: options.taskId,
        result: outcome.result,
        usage: { ...usage },
        turns,
      });
      setStatus("completed");
    } else if (outcome.status === "failed") {
      ui.say({ say: "error", message: outcome.message, code: outcome.code });
      options.emit({ type: "error", code: outcome.code, message: outcome.message, fatal: true });
      setStatus("failed");
    } else {
      setStatus("aborted");
    }
    await journal.settle();
    if (journal.failure) {
      options.emit({ type: "error", code: "storage_error", message: journal.failure.message, fatal: false });
    }
    return outcome;
  }

  return {
    id: options.taskId,
    history: history as readonly LlmMessage[],
    ui,
    get usage(): PricedUsage {
      return { ...usage };
    },
    get turns() {
      return turns;
    },
    get status() {
      return status;
    },
    /** Starts the task with the person's text (plus any context blocks, such as environment details). */
    start(text: string, context: ContentBlock[] = []): Promise<TaskOutcome> {
      return runExclusive(async () => {
        taskText = text;
        ui.say({ say: "task", text });
        const hooked = await promptHooks(["TaskStart", "UserPromptSubmit"], text);
        if (hooked.block) return finish({ status: "failed", code: "stopped_by_hook", message: hooked.block });
        return finish(
          await loop([{ type: "text", text: `<task>\n${text}\n</task>` }, ...context, ...hooked.context]),
        );
      });
    },
    /**
     * A new message from the person (with `context`, e.g. attached images). While the task
     * works, it is delivered with the results of the running tools, before the next request,
     * and the promise is the running work's outcome; otherwise it starts the next turn.
     */
    async send(text: string, context: ContentBlock[] = []): Promise<TaskOutcome> {
      const compact = /^\/compact\b\s*(.*)$/s.exec(text.trim());
      if (compact && options.condenseTool && !active) {
        ui.say({ say: "user_message", text });
        freshTurn();
        tools.offerCondense(true);
        return runExclusive(async () =>
          finish(await loop([{ type: "text", text: prompts.compactRequest(compact[1]!, tools.xml) }])),
        );
      }
      const hooked = await promptHooks(["UserPromptSubmit"], text);
      if (hooked.block) {
        ui.say({ say: "notice", text: `Message not sent: ${hooked.block}` });
        if (active) return active;
        return finish({ status: "failed", code: "stopped_by_hook", message: hooked.block });
      }
      const content: ContentBlock[] = [
        { type: "text", text: `<user_message>\n${text}\n</user_message>` },
        ...context,
        ...hooked.context,
      ];
      if (active) {
        interjections.add(text, content);
        return active;
      }
      ui.say({ say: "user_message", text });
      freshTurn();
      return runExclusive(async () => finish(await loop(content)));
    },
    /**
     * Continues a task loaded from its journal: the calls that were running when it stopped are
     * reported to the model as interrupted (never run again), then `context` (how long it was
     * away, what changed) and the person's new message, if any, follow in one user message.
     */
    resume(text: string | undefined, context: ContentBlock[] = []): Promise<TaskOutcome> {
      return runExclusive(async () => {
        if (text) ui.say({ say: "user_message", text });
        const pending = [...interruptedCalls(store, ui), ...context];
        if (text) pending.push({ type: "text", text: `<user_message>\n${text}\n</user_message>` });
        return finish(await loop(pending));
      });
    },
    /**
     * Puts the conversation back to the point a checkpoint mark (a `checkpoint` UI message) was
     * taken: after the results of the step it follows. Later entries stay in the journal.
     */
    rewindToCheckpoint(checkpointId: string): void {
      rewindToCheckpoint(store, ui, checkpointId);
    },
    /** Answers a pending ask (by its UI message id); false when no such ask is waiting. */
    answer: asks.answer,
    /** Switches plan/act mode: from the next tool call, and the model is told with its next request. */
    setMode(next: TaskMode): void {
      mode.set(next);
      setStatus(status);
    },
    get mode(): TaskMode {
      return mode.current;
    },
    /**
     * Switches the act-mode model from the next request on (a plan-mode model, if the task has
     * one, stays); the `state` event that follows names it, and the journal records the switch.
     */
    setModel(model: ModelClient, info: ModelInfo): void {
      models.setActModel(model, info);
      setStatus(status);
    },
    /** What fills the context window now, by part (estimates), with the last request's real count. */
    contextReport(): ContextReport {
      return contextReport({
        system: options.systemPrompt,
        toolSection: tools.offer.protocol === "xml" ? tools.offer.toolSection : undefined,
        tools: tools.definitions(),
        toolProtocol: tools.offer.protocol,
        history,
        window: requester.window(),
        lastUsage: requester.lastUsage(),
      });
    },
    abort(): void {
      controller.abort();
      asks.denyAll();
    },
  };
}

export type Task = ReturnType<typeof createTask>;
export type { ToolOffer };

/**
 * How the task loop talks to the model: each request prepared by the context manager
 * (compacted when it would not fit), sent with retries, back-off and a countdown, its usage
 * and cost added to the task's.
 */
import type { ContentBlock, LlmRequest, LlmToolDefinition, LlmUsage, ModelClient } from "../llm/types.js";
import { type ContextManager, createContextManager, type UsableWindow } from "./context/index.js";
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, withIdleTimeout } from "./idle-timeout.js";
import type { MessageStore } from "./message-store.js";
import { type RetryPolicy, retryCountdown, retryDelayMs } from "./retry.js";
import { type AssistantReply, streamReply, type XmlReplyOptions } from "./stream-reply.js";
import type { TaskOptions } from "./task.js";
import type { TaskModels } from "./task-models.js";
import { addUsage, linkedSignal, type PricedUsage, withCost } from "./task-util.js";
import type { UiMessageLog } from "./ui-messages.js";

export interface RequesterDeps {
  options: TaskOptions;
  store: MessageStore;
  ui: UiMessageLog;
  /** The task's running usage, added to in place. */
  usage: PricedUsage;
  retry: RetryPolicy;
  /** The model each request goes to (the mode's, switched by `setModel`). */
  models: TaskModels;
  signal(): AbortSignal;
  turns(): number;
  offeredTools(): LlmToolDefinition[];
  xmlReplyOptions(): XmlReplyOptions | undefined;
}

export function createRequester(deps: RequesterDeps) {
  /** The estimate of the last request the context manager prepared. */
  let preparedTokens = 0;
  /**
   * The model's view of its context use, once it is past half the usable window (below that it
   * is not worth the tokens).
   */
  const contextMeter = (): ContentBlock[] => {
    const manager = contextManager();
    if (preparedTokens < manager.window.usable / 2) return [];
    return [{ type: "text", text: manager.meter(preparedTokens) }];
  };

  /** The usage reported for the last request built by the context manager (not summaries). */
  let lastUsage: LlmUsage | undefined;
  const managers = new Map<ModelClient, ContextManager>();
  /** The context manager of the model in use (plan mode may use another model). */
  const contextManager = (): ContextManager => {
    const model = deps.models.current();
    let manager = managers.get(model.client);
    if (!manager) {
      manager = createContextManager({
        info: model.window,
        ...(deps.options.contextThreshold !== undefined ? { threshold: deps.options.contextThreshold } : {}),
        summarize,
      });
      managers.set(model.client, manager);
    }
    return manager;
  };

  /**
   * The next request: the history as the context manager prepares it (duplicate reads replaced,
   * compacted before it would pass the threshold; `overflowed` after the provider refused the
   * last one as too long). A compaction replaces the stored history and is shown as a notice.
   */
  async function nextRequest(overflowed: boolean): Promise<LlmRequest> {
    const tools = deps.offeredTools();
    const prepared = await contextManager().prepare(deps.store.history, {
      system: deps.options.systemPrompt,
      tools,
      lastUsage,
      overflowed,
    });
    preparedTokens = prepared.tokens;
    if (prepared.compacted) {
      const { kind, removed, summary } = prepared.compacted;
      deps.store.replace(prepared.history);
      deps.ui.say({
        say: "notice",
        text:
          kind === "summary"
            ? `Context compacted: ${removed} older messages were summarised.${summary ? `\n${summary}` : ""}`
            : `Context compacted: ${removed} older messages were removed to fit the context window.`,
      });
    }
    return { system: deps.options.systemPrompt, messages: prepared.history, tools };
  }

  /** The summary request of a compaction, sent like any request; its text, or undefined. */
  async function summarize(request: LlmRequest): Promise<string | undefined> {
    const reply = await requestWithRetries(async () => request, false);
    // The summary is shown once, in the compaction notice.
    for (const id of reply.uiMessageIds) deps.ui.discard(id);
    if (deps.signal().aborted) throw new Error("aborted");
    if (reply.error) return undefined;
    const text = reply.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    return text.trim() || undefined;
  }

  async function requestReply(): Promise<AssistantReply> {
    const reply = await requestWithRetries(nextRequest, true);
    lastUsage = reply.usage;
    return reply;
  }

  /**
   * Sends the request `build` makes (once per attempt), retrying what can be retried with
   * back-off and a countdown. A context overflow is retried once with `build(true)`.
   */
  async function requestWithRetries(
    build: (overflowed: boolean) => Promise<LlmRequest>,
    parseXml: boolean,
  ): Promise<AssistantReply> {
    let overflowed = false;
    for (let attempt = 0; ; attempt++) {
      const reply = await requestOnce(await build(overflowed), parseXml);
      const error = reply.error;
      if (!error || deps.signal().aborted) return reply;
      if (error.kind === "context_overflow" && !overflowed) {
        // One retry with a compacted history; a second overflow is reported.
        overflowed = true;
        for (const id of reply.uiMessageIds) deps.ui.discard(id);
        attempt--;
        continue;
      }
      const delay =
        error.retryable && attempt < deps.retry.attempts
          ? retryDelayMs(deps.retry, attempt, error.retryAfterMs)
          : undefined;
      if (delay === undefined) return reply;
      // The partial reply is dropped from the history; hide what it showed, too.
      for (const id of reply.uiMessageIds) deps.ui.discard(id);
      await retryCountdown(
        deps.ui,
        { attempt: attempt + 1, attempts: deps.retry.attempts, message: error.message, status: error.status },
        delay,
        deps.signal(),
      );
    }
  }

  /** One model request, streamed; its usage (and cost) is added to the task's. */
  async function requestOnce(body: LlmRequest, parseXml: boolean): Promise<AssistantReply> {
    const started = Date.now();
    const row = deps.ui.say({ say: "api_request", index: deps.turns() }, true);
    const request = linkedSignal(deps.signal());
    const model = deps.models.current();
    const events = model.client.stream(body, request.signal);
    const reply = await streamReply(
      withIdleTimeout(
        events,
        deps.options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
        request.abort,
      ),
      deps.ui,
      parseXml ? deps.xmlReplyOptions() : undefined,
    );
    request.unlink();
    const turnUsage = reply.usage ? withCost(reply.usage, model.prices) : undefined;
    if (turnUsage) addUsage(deps.usage, turnUsage);
    deps.ui.update(row, {
      say: "api_request",
      index: deps.turns(),
      usage: turnUsage,
      durationMs: Date.now() - started,
    });
    return reply;
  }

  return {
    requestReply,
    contextMeter,
    /** The usage reported for the last request of the conversation (not summaries); undefined before one. */
    lastUsage: (): LlmUsage | undefined => lastUsage,
    /** The window of the current model's context manager (smaller after an overflow). */
    window: (): UsableWindow => contextManager().window,
  };
}

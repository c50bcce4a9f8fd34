import type {
  AskMessage,
  Event,
  McpServerSummary,
  Say,
  TaskStatus,
  UiMessage,
  Usage,
} from "../../protocol/index.js";

export type Tone = "info" | "warning" | "error";

/** A line of detail output: diff lines are marked so they read without colour. */
export interface StyledLine {
  text: string;
  kind: "add" | "remove" | "hunk" | "plain";
}

/** Something final, written once to the terminal's scrollback (Ink `Static`). */
export type ConversationItem =
  | { key: string; kind: "message"; message: UiMessage }
  | { key: string; kind: "note"; text: string; tone: Tone }
  | { key: string; kind: "detail"; title: string; lines: StyledLine[] }
  | { key: string; kind: "released" };

export type ToolSay = Extract<Say, { say: "tool" }>;

export interface TuiState {
  /** Final items, oldest first. Items already written are replaced by a shared stub. */
  committed: ConversationItem[];
  /** Bumped by `/clear`: a fresh `Static` starts writing. */
  epoch: number;
  /** Messages still changing (streaming text, running tools) or not yet known to be kept. */
  live: UiMessage[];
  /** The open question, if any. */
  ask?: AskMessage;
  status: TaskStatus;
  /** The session's task, once the core said (its checkpoints are listed by it). */
  taskId?: string;
  model: string;
  /** The model's context window, when known (it changes with `/model`). */
  contextWindow?: number;
  /** Checkpoints taken in this session. */
  checkpoints: number;
  /** The MCP servers as last listed (their prompts are slash commands). */
  mcpServers?: McpServerSummary[];
  mode: "plan" | "act";
  usage: Usage;
  /** The usage of the last model request: what the context window holds now. */
  lastRequest?: Usage;
  requests: number;
  /** Messages typed while the agent works, sent when it stops. */
  queued: string[];
  /** The last finished tool call (Ctrl-O prints its output). */
  lastTool?: ToolSay;
  /** Choices of the last plan response, picked by number while the task waits for the person. */
  planOptions?: string[];
}

export interface TuiStore {
  get(): TuiState;
  subscribe(listener: () => void): () => void;
  handle(event: Event): void;
  note(text: string, tone?: Tone): void;
  /** A note about what is on screen now (it was stopped): shown after the messages still live. */
  noteAfterLive(text: string, tone?: Tone): void;
  detail(title: string, lines: StyledLine[]): void;
  setQueued(queued: string[]): void;
  /** The open ask was answered here: hide it without waiting for the core's state event. */
  closeAsk(): void;
  /** Forgets what is on screen (the conversation itself goes on in the core). */
  clear(): void;
  /** Items before `count` have been written; their content can be let go. */
  release(count: number): void;
}

const RELEASED: ConversationItem = { key: "released", kind: "released" };
const ZERO: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * Turns protocol events into what the screen shows. Finished messages move to `committed`
 * only at points where the core can no longer discard them (a failed reply is hidden when it
 * is retried): when a message other than streamed text starts, an ask opens, or the task stops.
 * Each change makes a new state object, so views compare slices by identity.
 */
export function createTuiStore(initial?: Partial<TuiState>): TuiStore {
  let state: TuiState = {
    committed: [],
    epoch: 0,
    live: [],
    status: "idle",
    model: "",
    mode: "act",
    usage: ZERO,
    requests: 0,
    checkpoints: 0,
    queued: [],
    ...initial,
  };
  const listeners = new Set<() => void>();
  const committedIds = new Set<string>();
  let released = 0;
  let counter = 0;

  const set = (next: Partial<TuiState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };

  const commit = (items: ConversationItem[]) => set({ committed: [...state.committed, ...items] });
  const noteItem = (text: string, tone: Tone): ConversationItem => ({
    key: `note-${++counter}`,
    kind: "note",
    text,
    tone,
  });
  const note = (text: string, tone: Tone = "info") => commit([noteItem(text, tone)]);
  /** Notes waiting for the live messages to reach the scrollback first. */
  let afterLive: ConversationItem[] = [];

  /** Moves the finished messages at the head of `live` to the scrollback (then waiting notes). */
  const commitFinished = (): Partial<TuiState> => {
    let count = 0;
    while (count < state.live.length && isFinal(state.live[count]!)) count++;
    if (count === 0 && (state.live.length > 0 || afterLive.length === 0)) return {};
    const moved = state.live.slice(0, count);
    for (const message of moved) committedIds.add(message.id);
    const live = state.live.slice(count);
    const notes = live.length === 0 ? afterLive : [];
    if (live.length === 0) afterLive = [];
    return {
      live,
      committed: [
        ...state.committed,
        ...moved.map((message): ConversationItem => ({ key: message.id, kind: "message", message })),
        ...notes,
      ],
    };
  };

  const onMessage = (message: UiMessage, added: boolean) => {
    if (message.type !== "say") return;
    const payload = message.payload;
    if (payload.say === "api_request") {
      if (payload.usage) set({ lastRequest: payload.usage, requests: state.requests + 1 });
      return;
    }
    if (payload.say === "checkpoint" && added) state = { ...state, checkpoints: state.checkpoints + 1 };
    if (committedIds.has(message.id)) return;
    const index = state.live.findIndex((m) => m.id === message.id);
    if (message.discarded) {
      if (index >= 0) {
        state = { ...state, live: state.live.filter((m) => m.id !== message.id) };
        set(commitFinished());
      }
      return;
    }
    const live =
      index >= 0 ? state.live.map((m, i) => (i === index ? message : m)) : [...state.live, message];
    const next: Partial<TuiState> = { live };
    if (payload.say === "tool" && isFinal(message)) {
      next.lastTool = payload;
      const options = planOptions(payload);
      if (options) next.planOptions = options;
    }
    state = { ...state, ...next };
    const startsSomethingElse = added && payload.say !== "text" && payload.say !== "reasoning";
    set(startsSomethingElse ? commitFinished() : {});
  };

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    handle(event) {
      switch (event.type) {
        case "ui_message_added":
        case "ui_message_updated":
          onMessage(event.message, event.type === "ui_message_added");
          break;
        case "ask":
          if (event.message.type !== "ask") return;
          state = { ...state, ask: event.message };
          set(commitFinished());
          break;
        case "state": {
          const next: Partial<TuiState> = {
            taskId: event.taskId,
            status: event.status,
            usage: event.usage,
            model: event.model,
            mode: event.mode,
          };
          if (event.status !== "waiting") next.ask = undefined;
          if (event.status === "running") next.planOptions = undefined;
          state = { ...state, ...next };
          set(event.status === "running" ? {} : commitFinished());
          break;
        }
        case "error":
          // Fatal errors also arrive as an `error` message of the conversation.
          if (!event.fatal) note(event.message, "warning");
          break;
        case "mcp_servers":
          set({ mcpServers: event.servers });
          break;
        case "model_changed":
          set({ model: event.model, contextWindow: event.contextWindow });
          break;
        case "task_completed":
          break;
      }
    },
    note,
    noteAfterLive(text, tone = "info") {
      if (state.live.length === 0) return note(text, tone);
      afterLive.push(noteItem(text, tone));
    },
    detail(title, lines) {
      commit([{ key: `detail-${++counter}`, kind: "detail", title, lines }]);
    },
    setQueued: (queued) => set({ queued }),
    closeAsk: () => set({ ask: undefined }),
    clear() {
      released = 0;
      set({ committed: [], epoch: state.epoch + 1 });
    },
    release(count) {
      // Written items are never rendered again (Static only renders new ones): keep a stub.
      for (; released < Math.min(count, state.committed.length); released++)
        state.committed[released] = RELEASED;
    },
  };
}

/** True when a message will not change any more. */
export function isFinal(message: UiMessage): boolean {
  if (message.partial) return false;
  if (message.type === "say" && message.payload.say === "tool")
    return !["pending", "running"].includes(message.payload.status);
  return true;
}

function planOptions(tool: ToolSay): string[] | undefined {
  if (tool.tool !== "plan_mode_respond" || tool.status !== "done") return undefined;
  const options = (tool.details as { options?: unknown } | undefined)?.options;
  return Array.isArray(options) && options.every((o) => typeof o === "string") && options.length > 0
    ? options
    : undefined;
}

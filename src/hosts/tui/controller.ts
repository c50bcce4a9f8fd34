import type { Command, Event, ImageAttachment } from "../../protocol/index.js";
import { MCP_COMMAND } from "./mcp-slash.js";
import { formatRule, suggestRule } from "./remember.js";
import { createSessionCommands } from "./session-slash.js";
import { BUILTIN_COMMANDS, runSlashCommand, type SlashCommand, type SlashContext } from "./slash-commands.js";
import type { StyledLine, TuiStore } from "./store.js";

/** What the TUI needs of a task session: the protocol's commands, and starting the task. */
export interface TuiSession {
  dispatch(command: Command): void;
  /** Starts the task with its first message (or continues a stored one with ""). */
  run(text: string, images?: ImageAttachment[]): Promise<unknown>;
}

export interface TuiControllerOptions {
  session: TuiSession;
  store: TuiStore;
  cwd: string;
  /** Extra slash commands; one with a built-in's name replaces it. */
  commands?: readonly SlashCommand[];
  clearScreen(): void;
  exit(): void;
  /** The person picked a stored task to continue (`/resume`), or a new task (undefined, `/clear`). */
  openTask?(taskId: string | undefined): void;
  /**
   * Lists the MCP servers once the task runs (their servers have started by then), so their
   * prompts complete as slash commands. Default true.
   */
  discoverMcp?: boolean;
}

/** A command sent by a slash command, waiting for the event that answers it. */
interface Waiter {
  answers: readonly Event["type"][];
  resolve(event: Event): void;
}

/**
 * What the person's actions do, in protocol terms. A message typed while the agent works is
 * sent at once: the core delivers it with the results of the running tools (or as the answer
 * of its next question), and it shows as queued until then. "Approve always" asks the core to
 * remember a rule for the workspace (the core then stops asking).
 */
export function createTuiController(options: TuiControllerOptions) {
  const { session, store } = options;
  let started = false;
  /** True from sending a message until the task stops. */
  let busy = false;
  const waiters: Waiter[] = [];
  let mcpListed = false;
  const commands = mergeCommands(options.commands ?? []);

  const dispatch = (command: Command) => session.dispatch(command);

  const start = (text: string, images: ImageAttachment[] = []) => {
    started = true;
    busy = true;
    session.run(text, images.length > 0 ? images : undefined).catch((error: unknown) => {
      busy = false;
      store.note(`The task stopped: ${error instanceof Error ? error.message : String(error)}`, "error");
    });
  };

  /** A message from the person: starts the task, answers its question, is queued, or is sent. */
  const send = (text: string, images: ImageAttachment[] = []) => {
    const ask = store.get().ask;
    if (
      ask &&
      ask.payload.ask !== "tool_approval" &&
      ask.payload.ask !== "limit_reached" &&
      images.length === 0
    ) {
      store.closeAsk();
      return dispatch({ type: "answer", askId: ask.id, response: "message", text });
    }
    if (!started) return start(text, images);
    if (busy) store.setQueued([...store.get().queued, text]);
    busy = true;
    dispatch({ type: "send_message", text, ...(images.length > 0 ? { images } : {}) });
  };

  const context: SlashContext = {
    cwd: options.cwd,
    commands,
    state: store.get,
    dispatch,
    request: (command, answers) =>
      new Promise((resolve) => {
        waiters.push({ answers, resolve });
        dispatch(command);
      }),
    busy: () => busy,
    resume: (taskId) =>
      options.openTask ? options.openTask(taskId) : store.note("This host cannot switch tasks."),
    newTask: () =>
      options.openTask ? options.openTask(undefined) : store.note("This host cannot start a new task."),
    send,
    print: store.note,
    detail: store.detail,
    exit: options.exit,
  };

  return {
    commands,
    /** Enter in the input box, with the images the text's placeholders stand for. */
    submit(text: string, images: ImageAttachment[] = []) {
      if (!text.trim()) return;
      if (images.length > 0 || !runSlashCommand(text, commands, context)) send(text, images);
    },
    /** Answers the open tool approval: once, or always for the rule it suggests. */
    approve(always: boolean) {
      const ask = store.get().ask;
      if (ask?.payload.ask !== "tool_approval" && ask?.payload.ask !== "limit_reached") return;
      store.closeAsk();
      if (!always || ask.payload.ask !== "tool_approval")
        return dispatch({ type: "answer", askId: ask.id, response: "approve" });
      const rule = formatRule(suggestRule(ask.payload.tool, ask.payload.input));
      dispatch({ type: "answer", askId: ask.id, response: "approve", remember: rule });
    },
    deny(feedback?: string) {
      const ask = store.get().ask;
      if (!ask) return;
      store.closeAsk();
      dispatch({ type: "answer", askId: ask.id, response: "deny", ...(feedback ? { text: feedback } : {}) });
    },
    /** Esc: stops the current step; the person says what next. */
    interrupt() {
      if (!busy) return;
      dispatch({ type: "abort" });
      store.noteAfterLive("Stopped. Say what to do next.", "warning");
    },
    toggleMode() {
      dispatch({ type: "set_mode", mode: store.get().mode === "plan" ? "act" : "plan" });
    },
    /** Picks option `n` (1-based) of the last plan response. */
    pickOption(n: number): boolean {
      const option = store.get().planOptions?.[n - 1];
      if (option === undefined || busy) return false;
      send(option);
      return true;
    },
    /** Ctrl-L: a clean screen; the conversation goes on. */
    clearScreen: options.clearScreen,
    showLastTool() {
      const tool = store.get().lastTool;
      if (!tool) return store.note("No tool has run yet.");
      const lines = (tool.output ?? "(no output)")
        .split("\n")
        .map((text): StyledLine => ({ kind: "plain", text }));
      store.detail(tool.summary, lines);
    },
    /** Sees every event after the store: answers waiting commands, opens the task, delivers the queue. */
    onEvent(event: Event) {
      const waiter = waiters.findIndex((w) => w.answers.includes(event.type));
      if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(event);
      // A queued message reached the model: it is no longer waiting.
      if (event.type === "ui_message_added" && event.message.type === "say") {
        const payload = event.message.payload;
        const queued = store.get().queued;
        if (payload.say === "user_message" && queued.includes(payload.text))
          store.setQueued(queued.filter((_, i) => i !== queued.indexOf(payload.text)));
      }
      if (event.type === "state") {
        if (event.status === "running" && !mcpListed && options.discoverMcp !== false) {
          mcpListed = true;
          dispatch({ type: "list_mcp_servers" });
        }
        if (event.status !== "idle") started = true;
        if (["completed", "failed", "aborted"].includes(event.status)) busy = false;
        else if (event.status === "running") busy = true;
      }
    },
    /** Starts the task at once (a task given on the command line, or a resumed one). */
    start,
    /** The person leaves: a running task is stopped (what it did is already journaled). */
    shutdown() {
      if (busy) dispatch({ type: "abort" });
      busy = false;
    },
  };
}

export type TuiController = ReturnType<typeof createTuiController>;

function mergeCommands(extra: readonly SlashCommand[]): SlashCommand[] {
  const names = new Set(extra.map((c) => c.name));
  const builtIn = [...BUILTIN_COMMANDS, ...createSessionCommands(), MCP_COMMAND];
  return [...builtIn.filter((c) => !names.has(c.name)), ...extra];
}

import { type Instance, render } from "ink";
import type { AskMessage, Event, TaskStatus } from "../../protocol/index.js";
import { App } from "./app.js";
import { type ApprovalPreview, previewApproval, workspaceReader } from "./approval-preview.js";
import { createTuiController, type TuiSession } from "./controller.js";
import { type Draft, wordAtCursor } from "./editor.js";
import { createFileIndex } from "./file-index.js";
import type { AttachedImage } from "./images.js";
import { createInputModel } from "./input-model.js";
import { type Completion, createKeyHandler } from "./keys.js";
import { completeSlash, type SlashCommand } from "./slash-commands.js";
import { createTuiStore, type StyledLine } from "./store.js";
import { themeFor } from "./theme.js";

export interface RunTuiOptions {
  session: TuiSession;
  /** Delivers the session's events (from the start: buffer those emitted before); returns the unsubscribe. */
  subscribe(listener: (event: Event) => void): () => void;
  /** The workspace: `@path` completion, workflows, diff previews. */
  cwd: string;
  /** A first message given on the command line: the task starts at once. */
  prompt?: string;
  /** The session continues a stored task: it starts at once, with `prompt` or nothing. */
  resume?: boolean;
  /** Shown in the status line (the core approves everything). */
  yolo?: boolean;
  /** The model, shown in the status line before the task's first state says it. */
  model?: string;
  /** The model's context window, for the status line and /context. */
  contextWindow?: number;
  /** More slash commands (a built-in of the same name is replaced). */
  commands?: readonly SlashCommand[];
  /** Lists the MCP servers when the task first runs, for their prompts' slash commands (default true). */
  discoverMcp?: boolean;
  /** Reads the clipboard's image for Ctrl-V (default: the system's clipboard tool). */
  clipboard?: () => AttachedImage | undefined;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  env?: NodeJS.ProcessEnv;
}

export interface TuiExit {
  /** The task's status when the person left (`idle` if it never started). */
  status: TaskStatus;
  /** The stored task the person chose to continue (`/resume`): the host opens it next. */
  resume?: string;
  /** The person started a new task (`/clear`): the host opens a fresh session next. */
  newTask?: boolean;
}

const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

/**
 * The interactive terminal interface. Renders the session's events and turns keys into
 * protocol commands until the person leaves (Ctrl-C twice, Ctrl-D on an empty line, /exit);
 * a running task is stopped then. Resolves once the screen is restored.
 */
export async function runTui(options: RunTuiOptions): Promise<TuiExit> {
  const stdout = options.stdout ?? process.stdout;
  let leave = () => {};
  const left = new Promise<void>((resolve) => {
    leave = resolve;
  });
  let instance: Instance | undefined;
  let next: Pick<TuiExit, "resume" | "newTask"> = {};
  const tui = createTui({
    ...options,
    exit: () => leave(),
    openTask(taskId) {
      next = taskId === undefined ? { newTask: true } : { resume: taskId };
      leave();
    },
    clearScreen() {
      instance?.clear();
      stdout.write(CLEAR_SCREEN);
    },
  });
  const restoreTerminal = () => stdout.write(BRACKETED_PASTE_OFF);
  if (stdout.isTTY) {
    stdout.write(BRACKETED_PASTE_ON);
    process.once("exit", restoreTerminal);
  }
  instance = render(tui.element, {
    stdin: options.stdin ?? process.stdin,
    stdout,
    exitOnCtrlC: false,
    patchConsole: true,
    // A keystroke is drawn within one frame even while text streams.
    maxFps: 60,
    incrementalRendering: false,
  });
  tui.begin();
  await left;
  tui.dispose();
  instance.unmount();
  await instance.waitUntilExit();
  if (stdout.isTTY) {
    restoreTerminal();
    process.off("exit", restoreTerminal);
  }
  return { status: tui.store.get().status, ...next };
}

/** What `createTui` needs beyond the options: how to leave and how to clear the screen. */
export interface TuiParts {
  exit(): void;
  clearScreen(): void;
  /**
   * Leave for a stored task (`/resume`), or for a new one when `taskId` is undefined (`/clear`);
   * without it the TUI says it cannot.
   */
  openTask?(taskId: string | undefined): void;
}

/**
 * The interface's parts wired together, without a terminal: the element to render, the
 * store and the controller (tests render the element with ink-testing-library).
 */
export function createTui(options: RunTuiOptions & TuiParts) {
  const store = createTuiStore({
    contextWindow: options.contextWindow,
    ...(options.model ? { model: options.model } : {}),
  });
  const input = createInputModel();
  const controller = createTuiController({
    session: options.session,
    store,
    cwd: options.cwd,
    commands: options.commands,
    clearScreen() {
      options.clearScreen();
      store.clear();
    },
    exit: options.exit,
    openTask: options.openTask,
    discoverMcp: options.discoverMcp,
  });
  const unsubscribe = options.subscribe((event) => {
    store.handle(event);
    controller.onEvent(event);
  });
  const files = createFileIndex(options.cwd, () => input.set({}));
  const preview = createPreviewCache(options.cwd);
  const completions = (draft: Draft): Completion | undefined => {
    const { start, word } = wordAtCursor(draft);
    if (start === 0 && word.startsWith("/")) {
      const items = completeSlash(word.slice(1), controller.commands, options.cwd, store.get().mcpServers);
      return items.length === 1 && items[0] === word ? undefined : { start, items };
    }
    if (word.startsWith("@"))
      return { start, items: files.search(word.slice(1), 50).map((path) => `@${path}`) };
    return undefined;
  };
  const onKey = createKeyHandler({
    cwd: options.cwd,
    clipboard: options.clipboard,
    input,
    store,
    controller,
    completions,
    printPreview() {
      const ask = store.get().ask;
      const shown = ask && preview(ask);
      if (ask?.payload.ask === "tool_approval" && shown)
        store.detail(ask.payload.summary, previewLines(shown));
    },
    exit: options.exit,
  });
  const element = (
    <App
      store={store}
      input={input}
      onKey={onKey}
      completions={completions}
      preview={preview}
      theme={themeFor(options.env ?? process.env)}
      yolo={options.yolo ?? false}
    />
  );
  return {
    element,
    store,
    input,
    controller,
    /** Starts the task when it was given on the command line or is resumed. */
    begin() {
      if (options.prompt || options.resume) controller.start(options.prompt ?? "");
    },
    dispose() {
      controller.shutdown();
      unsubscribe();
    },
  };
}

/** The preview of the open approval, computed once per ask (it may read and diff a file). */
function createPreviewCache(cwd: string): (ask: AskMessage) => ApprovalPreview | undefined {
  const read = workspaceReader(cwd);
  let cached: { id: string; preview: ApprovalPreview } | undefined;
  return (ask) => {
    if (ask.payload.ask !== "tool_approval") return undefined;
    if (cached?.id !== ask.id)
      cached = { id: ask.id, preview: previewApproval(ask.payload.tool, ask.payload.input, read) };
    return cached.preview;
  };
}

function previewLines(preview: ApprovalPreview): StyledLine[] {
  if (preview.kind !== "command") return preview.lines;
  return [
    { kind: "plain", text: `$ ${preview.command}` },
    ...preview.parts.map((part) => ({ kind: "plain" as const, text: `  · ${part}` })),
  ];
}

/**
 * Renders the TUI with ink-testing-library against a recording session: tests emit protocol
 * events, type keys, and read the frame and the commands the TUI sent.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { createTui, type RunTuiOptions } from "../../../src/hosts/tui/run-tui.js";
import type { Ask, Command, Event, Say, TaskStatus, UiMessage, Usage } from "../../../src/protocol/index.js";

export const KEYS = {
  enter: "\r",
  altEnter: "\x1b\r",
  escape: "\x1b",
  tab: "\t",
  up: "\x1b[A",
  down: "\x1b[B",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlO: "\x0f",
  ctrlL: "\x0c",
  pasteStart: "\x1b[200~",
  pasteEnd: "\x1b[201~",
};

const ZERO: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export const stripAnsi = (text: string) => stripVTControlCharacters(text);

export const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

export function mountTui(
  options: Partial<RunTuiOptions> & { openTask?(taskId: string | undefined): void } = {},
) {
  const listeners = new Set<(event: Event) => void>();
  const dispatched: Command[] = [];
  const runs: string[] = [];
  const runImages: unknown[][] = [];
  let exits = 0;
  let clears = 0;
  let counter = 0;
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "bowline-tui-"));
  const tui = createTui({
    session: {
      dispatch: (command) => dispatched.push(command),
      run: (text, images) => {
        runs.push(text);
        runImages.push(images ?? []);
        return new Promise(() => {});
      },
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    env: { NO_COLOR: "1" },
    discoverMcp: false,
    ...options,
    cwd,
    exit: () => exits++,
    clearScreen: () => clears++,
  });
  const ink = render(tui.element);
  tui.begin();
  let mode: "plan" | "act" = "act";

  const emit = (event: Event) => {
    for (const listener of listeners) listener(event);
  };
  const message = (payload: Say, extra: Partial<UiMessage> = {}): UiMessage =>
    ({ id: `m${++counter}`, ts: Date.now(), type: "say", payload, ...extra }) as UiMessage;

  return {
    tui,
    cwd,
    dispatched,
    runs,
    runImages,
    exits: () => exits,
    clears: () => clears,
    emit,
    /** Adds a message; returns it so that `update` can change it. */
    say(payload: Say, extra: Partial<UiMessage> = {}): UiMessage {
      const added = message(payload, extra);
      emit({ type: "ui_message_added", message: added });
      return added;
    },
    update(previous: UiMessage, payload: Say, extra: Partial<UiMessage> = {}): UiMessage {
      const next = { ...previous, payload, partial: undefined, ...extra } as UiMessage;
      emit({ type: "ui_message_updated", message: next });
      return next;
    },
    ask(payload: Ask): UiMessage {
      const asked = { id: `m${++counter}`, ts: Date.now(), type: "ask", payload } as UiMessage;
      emit({ type: "ask", message: asked });
      emit({ type: "state", taskId: "t1", status: "waiting", usage: ZERO, model: "fake-model", mode });
      return asked;
    },
    state(status: TaskStatus, extra: { usage?: Usage; mode?: "plan" | "act"; model?: string } = {}) {
      mode = extra.mode ?? mode;
      emit({
        type: "state",
        taskId: "t1",
        status,
        usage: extra.usage ?? ZERO,
        model: extra.model ?? "fake-model",
        mode,
      });
    },
    async type(...inputs: string[]) {
      for (const input of inputs) {
        ink.stdin.write(input);
        await settle(input === KEYS.escape ? 60 : 5);
      }
      await settle();
    },
    frame: () => stripAnsi(ink.lastFrame() ?? ""),
    rawFrame: () => ink.lastFrame() ?? "",
    unmount: () => {
      tui.dispose();
      ink.unmount();
    },
  };
}

export type MountedTui = ReturnType<typeof mountTui>;

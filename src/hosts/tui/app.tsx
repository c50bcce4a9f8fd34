import { Box, type Key, Static, useInput, useStdout } from "ink";
import { memo, useEffect, useState, useSyncExternalStore } from "react";
import type { AskMessage, UiMessage } from "../../protocol/index.js";
import type { ApprovalPreview } from "./approval-preview.js";
import { AskPanel } from "./ask-panel.js";
import { type Draft, position } from "./editor.js";
import { InputBox } from "./input-box.js";
import type { InputModel } from "./input-model.js";
import type { Completion } from "./keys.js";
import { ItemView, MessageView } from "./message-view.js";
import { StatusLine } from "./status-line.js";
import type { ConversationItem, TuiStore } from "./store.js";
import type { Theme } from "./theme.js";

export interface AppProps {
  store: TuiStore;
  input: InputModel;
  onKey(input: string, key: Key): void;
  completions(draft: Draft): Completion | undefined;
  preview(ask: AskMessage): ApprovalPreview | undefined;
  theme: Theme;
  yolo: boolean;
}

const MAX_INPUT_LINES = 6;

/**
 * The whole screen: finished conversation (written once to the scrollback), the live part
 * (streaming text, running tools), the open question, the input box and the status line.
 * Only the live part is redrawn, and it is kept shorter than the terminal so the terminal
 * never has to be cleared.
 */
export function App({ store, input, onKey, completions, preview, theme, yolo }: AppProps) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  const inputState = useSyncExternalStore(input.subscribe, input.get);
  const { columns, rows } = useTerminalSize();
  useInput(onKey);

  const ask = state.ask;
  const modal = ask && (ask.payload.ask === "tool_approval" || ask.payload.ask === "limit_reached");
  const completion = inputState.menuClosed ? undefined : completions(inputState.draft);
  const shownCompletion = completion && completion.items.length > 0 ? completion : undefined;
  const draftLines = Math.min(MAX_INPUT_LINES, position(inputState.draft).lines.length);
  const inputRows =
    draftLines +
    2 +
    state.queued.length +
    (shownCompletion ? Math.min(6, shownCompletion.items.length) + 1 : 0) +
    (inputState.hint ? 1 : 0);
  const askPreview = ask ? preview(ask) : undefined;
  const previewRows = Math.max(3, Math.floor((rows - inputRows - 10) * 0.8));
  const askRows = ask ? 6 + (askPreview ? Math.min(previewRows, previewLength(askPreview)) + 2 : 0) : 0;
  const liveRows = Math.max(3, rows - inputRows - askRows - 3);

  return (
    <Box flexDirection="column">
      <Conversation items={state.committed} epoch={state.epoch} theme={theme} onWritten={store.release} />
      <Live live={state.live} rows={liveRows} width={columns} theme={theme} />
      {ask && (
        <AskPanel
          ask={ask}
          preview={askPreview}
          maxLines={previewRows}
          feedback={inputState.feedback}
          theme={theme}
        />
      )}
      <InputBox
        state={inputState}
        completion={shownCompletion}
        queued={state.queued}
        active={!modal || inputState.feedback}
        placeholder={placeholderFor(state.status, ask, state.planOptions)}
        maxLines={MAX_INPUT_LINES}
        theme={theme}
      />
      <StatusLine state={state} yolo={yolo} width={columns} theme={theme} />
    </Box>
  );
}

const Conversation = memo(function Conversation(props: {
  items: ConversationItem[];
  epoch: number;
  theme: Theme;
  onWritten(count: number): void;
}) {
  const { items, epoch, theme, onWritten } = props;
  // Static writes each item once; after that its content is let go (long sessions stay small).
  useEffect(() => onWritten(items.length), [items, onWritten]);
  return (
    <Static key={epoch} items={items}>
      {(item) => <ItemView key={item.key} item={item} theme={theme} />}
    </Static>
  );
});

const Live = memo(function Live(props: { live: UiMessage[]; rows: number; width: number; theme: Theme }) {
  const { live, rows, width, theme } = props;
  if (live.length === 0) return null;
  // Earlier live messages (running tools) get a few lines each; the last, the streaming one, the rest.
  const others = Math.min(3, Math.floor(rows / (live.length + 1)));
  const last = Math.max(2, rows - others * (live.length - 1));
  return (
    <Box flexDirection="column">
      {live.map((message, i) => (
        <MessageView
          key={message.id}
          message={message}
          theme={theme}
          maxLines={i === live.length - 1 ? last : others}
          width={width}
        />
      ))}
    </Box>
  );
});

function placeholderFor(status: string, ask: AskMessage | undefined, options?: string[]): string {
  if (ask?.payload.ask === "followup" || ask?.payload.ask === "mistake_limit") return "Type your answer";
  if (options && status !== "running")
    return `Press 1-${options.length} to pick an option, or type (Tab: act mode)`;
  if (status === "idle") return "What should Bowline do? (/help for commands)";
  if (status === "running") return "Type to queue a message · Esc stops";
  return "Send a message, or /help";
}

function previewLength(preview: ApprovalPreview): number {
  return preview.kind === "command" ? 2 : preview.lines.length + 1;
}

/** The terminal's size, following resizes. */
function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on("resize", onResize);
    return () => void stdout.off("resize", onResize);
  }, [stdout]);
  return size;
}

const sizeOf = (stdout: NodeJS.WriteStream) => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });

import { Box, Text } from "ink";
import { memo } from "react";
import { position } from "./editor.js";
import type { InputState } from "./input-model.js";
import type { Completion } from "./keys.js";
import type { Theme } from "./theme.js";

export interface InputBoxProps {
  state: InputState;
  completion?: Completion;
  /** Messages waiting to be sent when the agent stops. */
  queued: readonly string[];
  /** False while an approval takes the keys: the box is shown dimmed, without a cursor. */
  active: boolean;
  placeholder: string;
  /** Lines of the draft shown at most (the cursor's line stays visible). */
  maxLines: number;
  theme: Theme;
}

const MENU_SIZE = 6;

/** The multi-line input, its completion menu, the queued messages and a hint line. */
export const InputBox = memo(function InputBox({
  state,
  completion,
  queued,
  active,
  placeholder,
  maxLines,
  theme,
}: InputBoxProps) {
  const { row, col, lines } = position(state.draft);
  const first = Math.max(0, Math.min(row - maxLines + 1, lines.length - maxLines));
  const visible = lines.slice(first, first + maxLines);
  return (
    <Box flexDirection="column">
      {queued.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: queued messages are only ever appended
        <Text key={i} color={theme.muted} wrap="truncate-end">{`⏸ queued: ${text.split("\n")[0]}`}</Text>
      ))}
      <Box
        borderStyle="round"
        borderColor={active ? (state.feedback ? theme.warning : theme.accent) : theme.muted}
        paddingX={1}
        flexDirection="column"
      >
        {first > 0 && <Text dimColor>{`… ${first} lines above`}</Text>}
        {visible.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their place
          <Text key={i} dimColor={!active}>
            <Text color={theme.user}>{i + first === 0 ? (state.feedback ? "feedback › " : "› ") : "  "}</Text>
            {active && i + first === row ? <CursorLine line={line} col={col} /> : line || " "}
            {active && state.draft.text === "" && <Text dimColor>{placeholder}</Text>}
          </Text>
        ))}
      </Box>
      {completion && <Menu completion={completion} selected={state.selected} theme={theme} />}
      {state.hint && <Text color={theme.warning}>{state.hint}</Text>}
    </Box>
  );
});

function CursorLine({ line, col }: { line: string; col: number }) {
  return (
    <>
      {line.slice(0, col)}
      <Text inverse>{line[col] ?? " "}</Text>
      {line.slice(col + 1)}
    </>
  );
}

function Menu({ completion, selected, theme }: { completion: Completion; selected: number; theme: Theme }) {
  const at = Math.min(selected, completion.items.length - 1);
  const start = Math.max(0, Math.min(at - MENU_SIZE + 1, completion.items.length - MENU_SIZE));
  return (
    <Box flexDirection="column" paddingX={2}>
      {completion.items.slice(start, start + MENU_SIZE).map((item, i) => (
        <Text
          key={item}
          color={i + start === at ? theme.accent : undefined}
          inverse={i + start === at}
          wrap="truncate-end"
        >
          {`${i + start === at ? "›" : " "} ${item}`}
        </Text>
      ))}
      <Text dimColor>Tab or Enter completes · Esc closes</Text>
    </Box>
  );
}

import { Box, Text } from "ink";
import type { AskMessage } from "../../protocol/index.js";
import type { ApprovalPreview } from "./approval-preview.js";
import { countChanges } from "./diff.js";
import { StyledLines } from "./message-view.js";
import { formatRule, suggestRule } from "./remember.js";
import type { Theme } from "./theme.js";

export interface AskPanelProps {
  ask: AskMessage;
  preview?: ApprovalPreview;
  /** Lines the preview may take; the rest is offered with `v`. */
  maxLines: number;
  /** True while the person types feedback for a denial. */
  feedback: boolean;
  theme: Theme;
}

/** The open question: a tool approval with what it will do, or a question to answer. */
export function AskPanel({ ask, preview, maxLines, feedback, theme }: AskPanelProps) {
  const payload = ask.payload;
  const border = {
    borderStyle: "round" as const,
    borderColor: theme.warning,
    paddingX: 1,
    flexDirection: "column" as const,
  };
  switch (payload.ask) {
    case "tool_approval": {
      const rule = formatRule(suggestRule(payload.tool, payload.input));
      return (
        <Box {...border}>
          <Text
            bold
          >{`${preview?.kind === "command" ? "Run this command?" : "Allow this change?"}  ${payload.summary}`}</Text>
          {preview && <Preview preview={preview} maxLines={maxLines} theme={theme} />}
          <Text>
            {feedback ? (
              <Text color={theme.warning}>Type why (and what to do instead), then Enter · Esc cancels</Text>
            ) : (
              <>
                <Key k="y" theme={theme} /> approve once · <Key k="a" theme={theme} />
                {` always (${rule}) · `}
                <Key k="n" theme={theme} /> deny · <Key k="f" theme={theme} /> deny with feedback
              </>
            )}
          </Text>
        </Box>
      );
    }
    case "followup":
      return (
        <Box {...border}>
          <Text bold>{`? ${payload.question}`}</Text>
          {(payload.options ?? []).map((option, i) => (
            <Text key={option}>{`  ${i + 1}. ${option}`}</Text>
          ))}
          <Text dimColor>
            {payload.options?.length ? "Press a number, or type an answer below" : "Type an answer below"}
          </Text>
        </Box>
      );
    case "mistake_limit":
      return (
        <Box {...border}>
          <Text>{payload.message}</Text>
          <Text dimColor>Type guidance below and Enter to go on · n stops</Text>
        </Box>
      );
    case "limit_reached":
      return (
        <Box {...border}>
          <Text>{payload.message}</Text>
          <Text>
            <Key k="y" theme={theme} /> go on with another budget · <Key k="n" theme={theme} /> stop
          </Text>
        </Box>
      );
  }
}

function Key({ k, theme }: { k: string; theme: Theme }) {
  return (
    <Text bold color={theme.accent}>
      {`[${k}]`}
    </Text>
  );
}

function Preview({ preview, maxLines, theme }: { preview: ApprovalPreview; maxLines: number; theme: Theme }) {
  if (preview.kind === "command") {
    return (
      <Box flexDirection="column" marginY={1}>
        <Text color={theme.code}>{`$ ${preview.command}`}</Text>
        {preview.parts.length > 1 && (
          <Text dimColor>{`${preview.parts.length} commands: ${preview.parts.join("  ·  ")}`}</Text>
        )}
      </Box>
    );
  }
  const lines = preview.lines;
  const shown = lines.length > maxLines ? lines.slice(0, Math.max(1, maxLines - 1)) : lines;
  const changes = preview.kind === "diff" ? countChanges(lines) : undefined;
  return (
    <Box flexDirection="column" marginY={1}>
      {changes && (
        <Text
          dimColor
        >{`${preview.kind === "diff" && preview.created ? "new file · " : ""}+${changes.added} -${changes.removed}`}</Text>
      )}
      <StyledLines lines={shown} theme={theme} />
      {shown.length < lines.length && (
        <Text dimColor>{`… ${lines.length - shown.length} more lines · v prints it all above`}</Text>
      )}
    </Box>
  );
}

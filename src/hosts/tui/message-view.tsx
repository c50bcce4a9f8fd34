import { Box, Text } from "ink";
import type { Say, UiMessage } from "../../protocol/index.js";
import { tailLines } from "./format.js";
import { Markdown } from "./markdown.js";
import type { ConversationItem, StyledLine, ToolSay } from "./store.js";
import type { Theme } from "./theme.js";

/** Tools whose result the conversation shows otherwise (the result or plan message). */
const SHOWN_AS_RESULT = new Set(["attempt_completion", "plan_mode_respond"]);

const TOOL_MARK: Record<ToolSay["status"], string> = {
  pending: "…",
  running: "▸",
  done: "✓",
  error: "✗",
  denied: "⊘",
};

/** One item of the scrollback. */
export function ItemView({ item, theme }: { item: ConversationItem; theme: Theme }) {
  switch (item.kind) {
    case "message":
      return <MessageView message={item.message} theme={theme} />;
    case "note": {
      const color = item.tone === "info" ? theme.muted : theme[item.tone];
      const mark = item.tone === "info" ? "·" : item.tone === "warning" ? "!" : "✗";
      return <Text color={color}>{`${mark} ${item.text}`}</Text>;
    }
    case "detail":
      return (
        <Box flexDirection="column">
          <Text bold>{item.title}</Text>
          <StyledLines lines={item.lines} theme={theme} />
        </Box>
      );
    case "released":
      return null;
  }
}

/**
 * A conversation message. `maxLines` bounds what a live message takes on screen (its last
 * lines), so the redrawn part stays smaller than the terminal and never scrolls.
 */
export function MessageView(props: { message: UiMessage; theme: Theme; maxLines?: number; width?: number }) {
  if (props.message.type !== "say") return null;
  return (
    <SayView say={props.message.payload} theme={props.theme} maxLines={props.maxLines} width={props.width} />
  );
}

function SayView({
  say,
  theme,
  maxLines,
  width,
}: {
  say: Say;
  theme: Theme;
  maxLines?: number;
  width?: number;
}) {
  switch (say.say) {
    case "task":
    case "user_message":
      return (
        <Box marginTop={1}>
          <Text color={theme.user} bold>
            {"❯ "}
          </Text>
          <Text bold>{say.text}</Text>
        </Box>
      );
    case "text":
      return say.text.trim() ? (
        <Markdown text={say.text} theme={theme} maxLines={maxLines} width={width} />
      ) : null;
    case "reasoning": {
      const text = say.text.trim();
      if (!text) return null;
      if (maxLines === undefined) {
        const lines = text.split("\n");
        return (
          <Text dimColor italic wrap="truncate-end">{`∴ thought (${lines.length} lines): ${lines[0]}`}</Text>
        );
      }
      const { lines } = tailLines(text, Math.min(maxLines, 3), width);
      return <Text dimColor italic>{`∴ ${lines.join("\n  ")}`}</Text>;
    }
    case "tool":
      if (SHOWN_AS_RESULT.has(say.tool) && say.status !== "error" && say.status !== "denied") return null;
      return <ToolLine tool={say} theme={theme} maxLines={maxLines} width={width} />;
    case "notice":
      return <Text color={theme.muted}>{`· ${say.text}`}</Text>;
    case "api_retry":
      return (
        <Text color={theme.warning}>
          {`↻ ${say.message} — retry ${say.attempt} of ${say.attempts}${say.secondsLeft > 0 ? ` in ${say.secondsLeft}s` : ""}`}
        </Text>
      );
    case "task_progress":
      return (
        <Box flexDirection="column">
          <Text bold>☰ Progress</Text>
          <Text>{say.text.replace(/^/gm, "  ")}</Text>
        </Box>
      );
    case "error":
      return <Text color={theme.error}>{`✗ ${say.message}`}</Text>;
    case "completion_result":
      return (
        <Box flexDirection="column" marginTop={1}>
          <Text color={theme.success} bold>
            ✔ Result
          </Text>
          <Markdown text={say.text} theme={theme} maxLines={maxLines} width={width} />
        </Box>
      );
    case "api_request":
      return null;
  }
}

function ToolLine(props: { tool: ToolSay; theme: Theme; maxLines?: number; width?: number }) {
  const { tool, theme, maxLines } = props;
  const color =
    tool.status === "error"
      ? theme.error
      : tool.status === "denied"
        ? theme.warning
        : tool.status === "done"
          ? theme.success
          : theme.accent;
  const live = tool.status === "running" && tool.output && maxLines !== undefined;
  const output = live ? tailLines(tool.output!.trimEnd(), Math.min(3, maxLines!)).lines : [];
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={color}>{`  ${TOOL_MARK[tool.status]} `}</Text>
        {tool.summary}
        <Text dimColor>{toolNote(tool)}</Text>
      </Text>
      {output.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: output lines have no identity but their place
        <Text key={i} dimColor wrap="truncate-end">{`    ${line}`}</Text>
      ))}
    </Box>
  );
}

/** What a finished tool call adds to its summary: exit code, lines changed, or why it failed. */
export function toolNote(tool: ToolSay): string {
  const details = (tool.details ?? {}) as Record<string, unknown>;
  if (tool.status === "denied") return " (denied)";
  if (tool.status === "error") return `: ${(tool.output ?? "failed").split("\n")[0]!.slice(0, 120)}`;
  if (tool.status !== "done") return tool.status === "pending" ? " (waiting)" : "";
  if (typeof details.exitCode === "number" && details.exitCode !== 0) return ` (exit ${details.exitCode})`;
  if (typeof details.linesAdded === "number" && typeof details.linesRemoved === "number")
    return ` (+${details.linesAdded} -${details.linesRemoved})`;
  return "";
}

export function StyledLines({ lines, theme }: { lines: readonly StyledLine[]; theme: Theme }) {
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their place
        <Text key={i} color={lineColor(line, theme)}>
          {line.text === "" ? " " : line.text}
        </Text>
      ))}
    </Box>
  );
}

function lineColor(line: StyledLine, theme: Theme): string | undefined {
  if (line.kind === "add") return theme.added;
  if (line.kind === "remove") return theme.removed;
  if (line.kind === "hunk") return theme.hunk;
  return undefined;
}

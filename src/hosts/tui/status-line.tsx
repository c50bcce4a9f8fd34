import { Box, Text } from "ink";
import { memo } from "react";
import type { TaskStatus } from "../../protocol/index.js";
import { formatCost, formatTokens, promptTokens } from "../../protocol/index.js";
import { cacheHitPercent } from "./format.js";
import type { TuiState } from "./store.js";
import type { Theme } from "./theme.js";

const FIELDS = [
  "model",
  "mode",
  "usage",
  "lastRequest",
  "status",
  "queued",
  "contextWindow",
  "checkpoints",
] as const;

export interface StatusLineProps {
  state: Pick<TuiState, (typeof FIELDS)[number]>;
  yolo: boolean;
  width: number;
  theme: Theme;
}

const ACTIVITY: Record<TaskStatus, string> = {
  idle: "ready",
  running: "working · Esc to stop",
  waiting: "waiting for you",
  completed: "done · type to go on",
  failed: "failed · type to retry",
  aborted: "stopped · type to go on",
};

/**
 * One line: mode, model, context used of the window, cache hits, cost, yolo, and what the
 * agent is doing. Parts are dropped, least useful first, until it fits the terminal's width.
 */
export const StatusLine = memo(
  StatusLineView,
  // Redrawn only when what it shows changed (not at every streamed chunk).
  (a, b) =>
    a.width === b.width &&
    a.yolo === b.yolo &&
    a.theme === b.theme &&
    FIELDS.every((field) => a.state[field] === b.state[field]),
);

function StatusLineView({ state, yolo, width, theme }: StatusLineProps) {
  const mode = state.mode === "plan" ? "PLAN" : "ACT";
  const parts = statusParts(state);
  const activity = `${ACTIVITY[state.status]}${state.queued.length > 0 ? ` · ${state.queued.length} queued` : ""}`;
  const fixed = mode.length + 3 + (yolo ? 7 : 0) + activity.length + 3;
  const shown = fitParts(parts, width - fixed);
  return (
    <Box>
      <Text inverse bold color={state.mode === "plan" ? theme.plan : theme.accent}>
        {` ${mode} `}
      </Text>
      {yolo && (
        <Text color={theme.warning} bold>
          {" YOLO "}
        </Text>
      )}
      <Text dimColor wrap="truncate-end">{` ${shown.join(" · ")}`}</Text>
      <Box flexGrow={1} />
      <Text color={state.status === "waiting" ? theme.warning : theme.muted} wrap="truncate-end">
        {activity}
      </Text>
    </Box>
  );
}

/** The status line's informational parts, most useful first. */
export function statusParts(state: StatusLineProps["state"]): string[] {
  const parts: string[] = [];
  const contextWindow = state.contextWindow;
  const context = state.lastRequest ? promptTokens(state.lastRequest) : 0;
  if (contextWindow) parts.push(`ctx ${formatTokens(context)}/${formatTokens(contextWindow)}`);
  else if (context > 0) parts.push(`ctx ${formatTokens(context)}`);
  if (state.model) parts.push(state.model);
  if (state.usage.costUsd !== undefined) parts.push(formatCost(state.usage.costUsd));
  if (promptTokens(state.usage) > 0) parts.push(`cache ${cacheHitPercent(state.usage)}%`);
  if (state.checkpoints > 0)
    parts.push(`${state.checkpoints} checkpoint${state.checkpoints === 1 ? "" : "s"}`);
  const total = promptTokens(state.usage) + state.usage.outputTokens;
  if (total > 0) parts.push(`${formatTokens(total)} tok`);
  return parts;
}

/** The parts that fit `room` when joined, taken in order of usefulness (a long one is skipped). */
export function fitParts(parts: string[], room: number): string[] {
  const shown: string[] = [];
  let used = 0;
  for (const part of parts) {
    const extra = part.length + (shown.length > 0 ? 3 : 0);
    if (used + extra > room) continue;
    shown.push(part);
    used += extra;
  }
  return shown;
}

import type { UiMessage, Usage } from "../../protocol/index.js";
import { taskTitle } from "./history-index.js";
import { type LoadedSession, loadSession } from "./load-session.js";

export type ExportFormat = "markdown" | "json";

const OUTPUT_LINES = 20;
const OUTPUT_CHARS = 2000;

/**
 * Task `id` as a readable markdown transcript, or as JSON `{meta, history, ui}` (the task file,
 * the active API history and the UI messages). Throws `SessionLoadError` as `loadSession` does.
 */
export function exportTask(home: string, id: string, format: ExportFormat): string {
  const session = loadSession(home, id);
  if (format === "json") {
    return `${JSON.stringify({ meta: session.meta, history: session.history, ui: session.ui }, null, 2)}\n`;
  }
  return markdownTranscript(session);
}

export function markdownTranscript(session: LoadedSession): string {
  const { meta } = session;
  const header = [
    `# ${taskTitle(meta.task) || "Task"}`,
    "",
    `- Task: ${meta.id}`,
    `- Workspace: ${meta.workspace}`,
    `- Model: ${meta.model} (${meta.provider})`,
    `- Started: ${meta.createdAt}; last activity: ${new Date(session.lastActivity).toISOString()}`,
    ...(session.forkedFrom
      ? [`- Forked from task ${session.forkedFrom.taskId} at entry ${session.forkedFrom.entryId}`]
      : []),
  ].join("\n");
  const body = session.ui
    .filter((message) => !message.discarded)
    .map(renderMessage)
    .filter((text) => text !== undefined);
  const turns = `${session.turns} turn${session.turns === 1 ? "" : "s"}`;
  const footer = `## Usage\n\n${turns} · ${usageLine(session.usage)}`;
  return `${[header, ...body, footer].join("\n\n")}\n`;
}

function renderMessage(message: UiMessage): string | undefined {
  if (message.type === "ask") {
    const ask = message.payload;
    if (ask.ask === "followup") {
      const options = ask.options?.length ? `\n\nOptions: ${ask.options.join(" | ")}` : "";
      return `**Question**\n\n${ask.question}${options}`;
    }
    if (ask.ask === "mistake_limit") return `**Stopped to ask** (mistake limit)\n\n${ask.message}`;
    return undefined; // an approval request: the tool message that follows shows the call
  }
  const say = message.payload;
  switch (say.say) {
    case "task":
      return `## Task\n\n${say.text}`;
    case "user_message":
      return `## User\n\n${say.text}`;
    case "text":
      return say.text.trim() ? `**Assistant**\n\n${say.text}` : undefined;
    case "tool": {
      const heading = `**Tool** \`${say.tool}\` ${say.summary} (${say.status})`;
      return say.output ? `${heading}\n\n${fenced(shortened(say.output))}` : heading;
    }
    case "completion_result":
      return `## Result\n\n${say.text}`;
    case "error":
      return `**Error**${say.code ? ` (${say.code})` : ""}: ${say.message}`;
    case "notice":
      return `> ${say.text.replace(/\n/g, "\n> ")}`;
    default:
      return undefined; // requests, retries, reasoning and the checklist are bookkeeping
  }
}

function shortened(output: string): string {
  const lines = output.split("\n");
  let text = lines.slice(0, OUTPUT_LINES).join("\n");
  if (text.length > OUTPUT_CHARS) text = text.slice(0, OUTPUT_CHARS);
  const rest = output.length - text.length;
  return rest > 0 ? `${text}\n… (${rest} more characters, ${lines.length} lines in all)` : text;
}

/** A code block whose fence is longer than any run of backticks inside it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

function usageLine(usage: Usage): string {
  const count = (n: number) => n.toLocaleString("en-US");
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const parts = [
    `${count(input)} input tokens (${count(usage.cacheReadTokens)} from the cache)`,
    `${count(usage.outputTokens)} output tokens`,
  ];
  if (usage.costUsd !== undefined) parts.push(`$${usage.costUsd.toFixed(4)}`);
  return parts.join(" · ");
}

import type { Event, UiMessage } from "../../protocol/index.js";
import { formatUsage } from "./format-usage.js";

/**
 * Turns events into human-readable lines for plain terminals and logs. Streaming text is
 * printed once, when its message is final.
 */
export function createTextRenderer(write: (line: string) => void) {
  const printed = new Set<string>();
  const render = (message: UiMessage) => {
    if (message.type === "say" && message.payload.say === "api_retry") {
      // The countdown updates every second; a plain terminal shows it once, when it starts.
      const retry = message.payload;
      if (printed.has(message.id)) return;
      printed.add(message.id);
      write(
        `  · ${retry.message}; retrying in ${retry.secondsLeft}s (retry ${retry.attempt} of ${retry.attempts})`,
      );
      return;
    }
    if (message.partial || message.discarded || message.type !== "say") return;
    const payload = message.payload;
    const key = `${message.id}:${payload.say === "tool" ? payload.status : ""}`;
    if (printed.has(key)) return;
    printed.add(key);
    switch (payload.say) {
      case "task":
        write(`▶ Task: ${payload.text}`);
        break;
      case "user_message":
        write(`▶ You: ${payload.text}`);
        break;
      case "text":
        if (payload.text.trim()) write(`\n${payload.text.trim()}\n`);
        break;
      case "reasoning":
        break;
      case "tool":
        if (payload.status === "done") write(`  ✓ ${payload.summary}${outcomeNote(payload.details)}`);
        else if (payload.status === "error") write(`  ✗ ${payload.summary}: ${firstLine(payload.output)}`);
        else if (payload.status === "denied") write(`  ⊘ ${payload.summary} (denied)`);
        break;
      case "task_progress":
        write(`  ☰ Progress\n${payload.text.replace(/^/gm, "    ")}`);
        break;
      case "notice":
        write(`  · ${payload.text}`);
        break;
      case "error":
        write(`✗ ${payload.message}`);
        break;
      case "completion_result":
        write(`\n✔ Done\n${payload.text}`);
        break;
      case "api_request":
      case "api_retry":
        break;
    }
  };
  return (event: Event) => {
    if (event.type === "ui_message_added" || event.type === "ui_message_updated") render(event.message);
    const ended = event.type === "state" && ["completed", "failed", "aborted"].includes(event.status);
    if (ended && event.usage.inputTokens + event.usage.outputTokens > 0)
      write(`  ${formatUsage(event.usage)}`);
  };
}

function outcomeNote(details: unknown): string {
  if (details && typeof details === "object" && "exitCode" in details) {
    const code = (details as { exitCode: unknown }).exitCode;
    return code === 0 ? "" : ` (exit ${String(code)})`;
  }
  return "";
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n")[0]!.slice(0, 200);
}

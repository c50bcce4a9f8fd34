import type { Event } from "../../protocol/index.js";

/** The latest moment, after the first request is announced, at which servers start. */
export const MAX_START_DELAY_MS = 500;

/**
 * The task's `emit` for a hub the session owns: events pass on unchanged, and the hub's servers
 * start once the task's first model request has gone out: at the first event after its
 * announcement (the model began to answer, or the request failed), or `maxDelayMs` after the
 * announcement for a model slow to answer. Spawning a server blocks the process for tens of
 * milliseconds (more on a loaded machine, and a configuration may name many), so servers
 * started while the request is still being sent (connection, TLS) would delay it; started
 * then, they connect while the model answers, and their tools and instructions join the next
 * request. `start` must be idempotent (a host's `list_mcp_servers` may have started them).
 */
export function startServersAtFirstRequest(
  hub: { start(): void },
  emit: (event: Event) => void,
  maxDelayMs = MAX_START_DELAY_MS,
): (event: Event) => void {
  let announced = false;
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const start = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    hub.start();
  };
  return (event) => {
    emit(event);
    if (started) return;
    if (announced) start();
    else if (announcesRequest(event)) {
      announced = true;
      timer = setTimeout(start, maxDelayMs);
      timer.unref();
    }
  };
}

function announcesRequest(event: Event): boolean {
  return (
    event.type === "ui_message_added" &&
    event.message.type === "say" &&
    event.message.payload.say === "api_request"
  );
}

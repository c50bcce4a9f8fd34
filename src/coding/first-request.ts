import type { Event } from "../protocol/index.js";

/** The latest moment, after the first request is announced, at which the work starts. */
export const MAX_START_DELAY_MS = 500;

/**
 * The task's `emit` with work deferred past the first model request: events pass on unchanged,
 * and `work.start()` runs once the task's first model request has gone out: at the first event
 * after its announcement (the model began to answer, or the request failed), or `maxDelayMs`
 * after the announcement for a model slow to answer. The work is what a session needs only
 * once the model has replied (its MCP servers, the baseline checkpoint, the shell grammar):
 * spawning processes and compiling wasm block the process for tens of milliseconds, so done
 * while the request is still being sent (connection, TLS) they would delay it; done then, they
 * finish while the model answers. `start` must be idempotent (a host's `list_mcp_servers` may
 * have started the servers, a mutation the baseline).
 */
export function startAtFirstRequest(
  work: { start(): void },
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
    work.start();
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

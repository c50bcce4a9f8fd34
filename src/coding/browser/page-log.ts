import type { Page } from "playwright-core";

/** Console output and uncaught errors of the pages being watched, collected between actions. */
export interface PageLog {
  /** Starts collecting the console messages and page errors of `page`. */
  watch(page: Page): void;
  /** Adds a line of Bowline's own (e.g. that a tab opened). */
  note(line: string): void;
  /** The lines collected since the last call, oldest first; at most `maxLines`. */
  drain(): string[];
}

/** At most this many lines are kept between two actions; older ones are counted, not kept. */
const MAX_LINES = 200;
const MAX_LINE_CHARS = 2000;

export function createPageLog(maxLines = MAX_LINES): PageLog {
  let lines: string[] = [];
  let dropped = 0;
  const push = (line: string) => {
    lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [...]` : line);
    if (lines.length > maxLines) {
      lines.shift();
      dropped++;
    }
  };
  return {
    watch(page) {
      page.on("console", (message) => push(`[${message.type()}] ${message.text()}`));
      page.on("pageerror", (error) => push(`[page error] ${error.message}`));
    },
    note: (line) => push(`[browser] ${line}`),
    drain() {
      const out = dropped > 0 ? [`[browser] ${dropped} earlier lines were left out`, ...lines] : lines;
      lines = [];
      dropped = 0;
      return out;
    },
  };
}

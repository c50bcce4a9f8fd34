import { toPlainText } from "./terminal-text.js";

/**
 * Lines that servers, dev servers and watchers print once they are up and waiting: a command
 * still running at its timeout after printing one of these is left running in the background
 * rather than killed.
 */
const SERVER_PATTERNS = [
  /\blistening (?:on|at)\b/i,
  /\bserver (?:is )?(?:running|started|listening)\b/i,
  /\bstarted server on\b/i,
  /\b(?:local|network):\s+https?:\/\//i,
  /\bhttps?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):\d+/i,
  /\b(?:watching|waiting) for (?:file )?changes\b/i,
  /\bready in \d/i,
];

/** True when `text` (raw terminal output) looks like a server or watcher that is up. */
export function looksLikeServer(text: string): boolean {
  const plain = toPlainText(text);
  return SERVER_PATTERNS.some((pattern) => pattern.test(plain));
}

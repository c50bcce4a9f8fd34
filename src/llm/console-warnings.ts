/**
 * Runs `run` with `console.warn` captured: what it warns of synchronously (an SDK's warning
 * about a deprecated model) is returned, one line each, instead of written to the terminal.
 */
export function withConsoleWarnings<T>(run: () => T): { value: T; warnings: string[] } {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    // One line: a line break that ended a sentence without a full stop gets one.
    const text = args.map(String).join(" ").trim();
    warnings.push(text.replace(/([^.!?:;,])[ \t]*\n\s*/g, "$1. ").replace(/\s*\n\s*/g, " "));
  };
  try {
    return { value: run(), warnings };
  } finally {
    console.warn = original;
  }
}

/**
 * Runs `run` with `console.warn` captured: what it warns of synchronously (an SDK's warning
 * about a deprecated model) is returned, one line each, instead of written to the terminal.
 */
export function withConsoleWarnings<T>(run: () => T): { value: T; warnings: string[] } {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(
      args
        .map(String)
        .join(" ")
        .replace(/\s*\n\s*/g, " ")
        .trim(),
    );
  };
  try {
    return { value: run(), warnings };
  } finally {
    console.warn = original;
  }
}

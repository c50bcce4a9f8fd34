/**
 * Runs one reply's tool calls: each run of consecutive read-only calls runs concurrently (at most
 * `maxConcurrent` at a time), and a mutating call runs alone, after every earlier call finished
 * and before any later one starts. Results come back in call order.
 */

export type ScheduledResult<R> =
  | { status: "done"; value: R }
  /** Not started: `shouldStop` said so before its turn. */
  | { status: "skipped" }
  /** `run` threw (a broken contract: it should turn failures into results). */
  | { status: "error"; error: unknown };

export interface RunCallsOptions<C, R> {
  /**
   * True when the call may run beside other read-only calls. It should also be true only for
   * calls that will not stop to ask the person, so two questions are never open at once.
   */
  isReadOnly(call: C): boolean;
  /** Runs one call. Contract: should not throw (a throw becomes an `error` entry). */
  run(call: C, index: number): Promise<R>;
  /** Asked before each call starts; once true, that call and all later ones are skipped. */
  shouldStop?(): boolean;
  /** Most read-only calls running at once. Default 8. */
  maxConcurrent?: number;
}

export async function runCalls<C, R>(
  calls: readonly C[],
  options: RunCallsOptions<C, R>,
): Promise<Array<ScheduledResult<R>>> {
  const results: Array<ScheduledResult<R>> = calls.map(() => ({ status: "skipped" }));
  const limit = Math.max(1, options.maxConcurrent ?? 8);
  let stopped = false;
  const stopNow = () => {
    stopped ||= options.shouldStop?.() === true;
    return stopped;
  };
  const runOne = async (index: number) => {
    try {
      results[index] = { status: "done", value: await options.run(calls[index]!, index) };
    } catch (error) {
      results[index] = { status: "error", error };
    }
  };

  const readOnly = calls.map((call) => options.isReadOnly(call));
  let index = 0;
  while (index < calls.length && !stopNow()) {
    if (!readOnly[index]) {
      await runOne(index);
      index++;
      continue;
    }
    let end = index;
    while (end < calls.length && readOnly[end]) end++;
    await runPool(index, end, limit, (i) => (stopNow() ? Promise.resolve() : runOne(i)));
    index = end;
  }
  return results;
}

/** Runs `task(i)` for i in [start, end), at most `limit` at once. */
async function runPool(
  start: number,
  end: number,
  limit: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = start;
  const worker = async () => {
    while (next < end) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, end - start) }, worker));
}

/**
 * Notices a model that is not making progress. Two patterns are watched:
 *
 * - **repeat**: the same call (same tool, same signature) several times in a row, whatever the
 *   outcomes. The warning fires when the run reaches `softThreshold` calls, the escalation when it
 *   reaches `hardThreshold`.
 * - **alternate**: a failing call A alternating with another call B: A B A B ..., where every A
 *   has one signature and failed, every B has one (different) signature, and B's outcome does not
 *   matter. Each A-then-B is one repetition of the pair; the warning fires when the B that
 *   completes the `softThreshold`-th repetition is recorded, the escalation at the
 *   `hardThreshold`-th. Requiring B to repeat exactly keeps the ordinary fix-and-retest cycle
 *   (a different edit between identical failing test runs) from counting.
 *
 * Each warning fires once per run. After an escalation the detector starts afresh, so the loop
 * does not need to call `reset` (it should after the person answered, as after any new guidance).
 */

/** What the loop should do after a call. */
export type LoopCheck =
  | { kind: "none" }
  /** Tell the model `message` (e.g. as a text block after the tool results). */
  | { kind: "warning"; pattern: LoopPattern; message: string }
  /** Stop for the person (interactive) or end the task (non-interactive); `message` says why. */
  | { kind: "escalate"; pattern: LoopPattern; message: string };

export type LoopPattern = "repeat" | "alternate";

export type CallOutcome = "ok" | "error";

export interface LoopDetectorOptions {
  /** Default 3. */
  softThreshold?: number;
  /** Default 5. */
  hardThreshold?: number;
}

export interface LoopDetector {
  /** `name` plus the input as JSON with object keys sorted at every depth and the top-level `task_progress` left out. */
  signature(name: string, input: unknown): string;
  /** Records a finished call (after it ran) and says whether the loop should react. */
  record(name: string, input: unknown, outcome: CallOutcome): LoopCheck;
  reset(): void;
}

interface Recorded {
  name: string;
  signature: string;
  failed: boolean;
}

interface Alternation {
  a: Recorded;
  b: Recorded;
  /** Completed A-then-B repetitions. */
  pairs: number;
  expect: "a" | "b";
}

const NONE: LoopCheck = { kind: "none" };

export function createLoopDetector(options: LoopDetectorOptions = {}): LoopDetector {
  const soft = options.softThreshold ?? 3;
  const hard = options.hardThreshold ?? 5;
  if (!(Number.isInteger(soft) && Number.isInteger(hard) && soft >= 2 && hard > soft)) {
    throw new Error(`Loop detection needs integer thresholds with 2 <= soft < hard (got ${soft}, ${hard}).`);
  }
  let last: Recorded | undefined;
  let repeats = 0;
  let alternation: Alternation | undefined;

  const reset = () => {
    last = undefined;
    repeats = 0;
    alternation = undefined;
  };

  function repeatCheck(call: Recorded): LoopCheck {
    if (repeats === soft) {
      return {
        kind: "warning",
        pattern: "repeat",
        message: `Tool [${call.name}] has been called ${soft} times in a row with identical arguments. This is not making progress. Use a different tool or different arguments instead of repeating the same call.`,
      };
    }
    if (repeats === hard) {
      reset();
      return {
        kind: "escalate",
        pattern: "repeat",
        message: `The model called ${call.name} ${hard} times in a row with identical arguments, even after a warning.`,
      };
    }
    return NONE;
  }

  function checkAlternation(call: Recorded, previous: Recorded | undefined): LoopCheck {
    const alt = alternation;
    if (alt?.expect === "a" && call.signature === alt.a.signature && call.failed) {
      alt.expect = "b";
      return NONE;
    }
    if (alt?.expect === "b" && call.signature === alt.b.signature) {
      alt.expect = "a";
      alt.pairs++;
      return pairCheck(alt);
    }
    // The pattern broke (or never started): the previous call may begin a new one.
    alternation =
      previous?.failed && previous.signature !== call.signature
        ? { a: previous, b: call, pairs: 1, expect: "a" }
        : undefined;
    return NONE;
  }

  function pairCheck(alt: Alternation): LoopCheck {
    const { a, b } = alt;
    if (alt.pairs === soft) {
      return {
        kind: "warning",
        pattern: "alternate",
        message: `Tool [${a.name}] has failed ${soft} times with identical arguments, alternating with the same [${b.name}] call. Repeating this pair is not making progress. Read the error, then change the arguments or take a different approach.`,
      };
    }
    if (alt.pairs === hard) {
      reset();
      return {
        kind: "escalate",
        pattern: "alternate",
        message: `The model alternated a failing ${a.name} call with the same ${b.name} call ${hard} times, even after a warning.`,
      };
    }
    return NONE;
  }

  return {
    signature: toolCallSignature,
    record(name, input, outcome) {
      const call: Recorded = { name, signature: toolCallSignature(name, input), failed: outcome === "error" };
      const previous = last;
      last = call;
      if (previous?.signature === call.signature) {
        // An identical repeat is not an alternation; it ends one.
        alternation = undefined;
        repeats++;
        return repeatCheck(call);
      }
      repeats = 1;
      return checkAlternation(call, previous);
    },
    reset,
  };
}

/** `name` plus canonical JSON of `input`: keys sorted at every depth, top-level `task_progress` dropped. */
export function toolCallSignature(name: string, input: unknown): string {
  if (input === undefined || input === null) return `${name} {}`;
  let top = input;
  if (isPlainObject(input) && "task_progress" in input) {
    const { task_progress: _ignored, ...rest } = input;
    top = rest;
  }
  return `${name} ${JSON.stringify(canonical(top, new WeakSet()))}`;
}

/** A copy of `value` whose objects have their keys in sorted order (so JSON.stringify is canonical). */
function canonical(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => canonical(item, seen));
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      sorted[key] = canonical((value as Record<string, unknown>)[key], seen);
    }
    return sorted;
  } finally {
    seen.delete(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

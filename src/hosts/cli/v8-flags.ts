import { setFlagsFromString } from "node:v8";

/**
 * The V8 settings of the `bowline` process, set at start-up (src/hosts/cli/main.ts) and by the
 * benchmark children that stand in for it, so that what is measured is what users run.
 *
 * - `--liftoff-only`: Node's fetch parses HTTP with a WebAssembly build of llhttp. By default V8
 *   also compiles it with its optimising tier on a background thread, which costs ~30 MB and
 *   ~200 ms that the process then waits for at exit; the baseline tier is plenty for a CLI's
 *   HTTP traffic.
 * - `--semi-space-growth-factor=1`: a CLI's garbage is short-lived and small: keep the young
 *   generation from doubling its size.
 * - `--heap-growing-percent=25`: after each full collection V8 lets the old generation grow by a
 *   factor it picks from its speed (up to 4×), so a long session's heap limit climbs far above
 *   what it holds (about 40 MB after 1,000 turns) and resident memory with it. Growing by a
 *   quarter (V8 still grows by at least a few megabytes) keeps a 1,000-turn session with the TUI
 *   near 170 MB instead of 270 MB, with no measurable cost to drawing or typing (bench/tui.ts).
 *   `--optimize-for-size` saves more but doubles the cost of each drawn frame.
 */
export const V8_FLAGS = ["--liftoff-only", "--heap-growing-percent=25"];

export function applyV8Flags(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}

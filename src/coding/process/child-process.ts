import type * as ChildProcess from "node:child_process";
import { createRequire } from "node:module";

const requireHere = createRequire(import.meta.url);
let loaded: typeof ChildProcess | undefined;

/**
 * `node:child_process`, loaded on first use: loading it costs a start ~7 ms, and no process
 * runs before the first model request.
 */
export function childProcess(): typeof ChildProcess {
  loaded ??= requireHere("node:child_process") as typeof ChildProcess;
  return loaded;
}

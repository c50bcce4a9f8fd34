/**
 * The interactive terminal interface (Ink + React). A host of its own: it sees only protocol
 * events and sends protocol commands. Bundled apart (dist/tui.cjs) so runs without a terminal
 * never load Ink or React.
 */
export type { TuiSession } from "./controller.js";
export { createTuiHost, type TuiHost } from "./host.js";
export { type RunTuiOptions, runTui, type TuiExit } from "./run-tui.js";
export type { SlashCommand, SlashContext } from "./slash-commands.js";

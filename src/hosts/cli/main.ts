import { detectSandbox } from "../../coding/safety/sandbox.js";
import { HELP, parseCliArgs, UsageError } from "./args.js";
import { loadBundle } from "./load-bundle.js";
import { applyV8Flags } from "./v8-flags.js";

declare const BOWLINE_VERSION: string;

applyV8Flags();

/** The `bowline` entry point. Loads only what the chosen command needs. */
async function main(argv: string[]): Promise<number> {
  // Commands with flags of their own parse them themselves (part of the run bundle).
  if (argv[0] === "checkpoints") {
    return loadBundle<typeof import("./run.js")>("run").runCheckpoints(
      argv.slice(1),
      process.cwd(),
      process.env,
    );
  }
  if (argv[0] === "permissions") {
    return loadBundle<typeof import("./run.js")>("run").runPermissionsCommand(
      argv.slice(1),
      process.cwd(),
      process.env,
    );
  }
  if (argv[0] === "mcp") {
    return loadBundle<typeof import("./run.js")>("run").runMcpCommand(
      argv.slice(1),
      process.cwd(),
      process.env,
    );
  }
  if (argv[0] === "history") {
    return loadBundle<typeof import("./run.js")>("run").runHistoryCommand(
      argv.slice(1),
      process.cwd(),
      process.env,
    );
  }
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv, process.cwd());
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`bowline: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  switch (args.command) {
    case "version":
      process.stdout.write(`${typeof BOWLINE_VERSION === "string" ? BOWLINE_VERSION : "dev"}\n`);
      return 0;
    case "help":
      process.stdout.write(`${HELP}\n`);
      return 0;
    case "demo":
      return loadBundle<typeof import("./demo.js")>("demo").runDemo(args);
    case "models":
      // Part of the run bundle: it resolves models the way a task does.
      return loadBundle<typeof import("./run.js")>("run").runModelsCommand(args);
    case "run": {
      // The sandbox probe: usually an earlier start's answer, read from disk; otherwise bwrap
      // is spawned now, while the process is small, and runs while the bundle loads.
      const sandboxProbe = detectSandbox();
      return loadBundle<typeof import("./run.js")>("run").runTaskCommand(args, undefined, sandboxProbe);
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // The work is done: exit once output is flushed instead of waiting for idle keep-alive
    // timers of the HTTP client to expire.
    process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
  },
  (error: unknown) => {
    process.stderr.write(
      `bowline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);

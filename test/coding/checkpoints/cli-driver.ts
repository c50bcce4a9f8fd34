/**
 * `bowline checkpoints <argv...>` in the current folder, as the CLI runs it, for tests that need a
 * real terminal. Usage: node --import tsx cli-driver.ts <argv...>
 */
import { runCheckpointsCommand } from "../../../src/hosts/cli/checkpoints.js";

process.exitCode = await runCheckpointsCommand(process.argv.slice(2), process.cwd(), process.env);

/**
 * The TUI against a real task session, as `bowline` will run it once `run.ts` calls `runTui`
 * for terminals: events buffered until the TUI subscribes, the interactive approval policy,
 * the model from flags and environment (see createTuiHost). Bundled by pty.test.ts and run in a pseudo-terminal.
 *
 * Environment: BOWLINE_TUI_BASE_URL (the fake model server), ANTHROPIC_API_KEY, BOWLINE_HOME,
 * BOWLINE_TUI_PROMPT (optional first message), BOWLINE_TUI_YOLO=1 (approve everything),
 * BOWLINE_TUI_REPORT (a file for the exit code and memory use, written on exit),
 * BOWLINE_TUI_HEADLESS=1 (no TUI: the task runs to its end with nobody watching; a baseline).
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { ApprovalPolicy } from "../../../src/agent/approval.js";
import { createNonInteractivePolicy } from "../../../src/coding/approval-rules.js";
import { createTaskSession } from "../../../src/coding/controller.js";
import { resolveModels } from "../../../src/coding/settings/index.js";
import { applyV8Flags } from "../../../src/hosts/cli/v8-flags.js";
import { createTuiHost } from "../../../src/hosts/tui/index.js";
import { lookupModel } from "../../../src/llm/catalogue.js";

// The V8 settings of the CLI, set the way it sets them (the benchmarks measure this entry).
applyV8Flags();
const env = process.env;
const yolo = env.BOWLINE_TUI_YOLO === "1";
const cwd = process.cwd();

/** Resident memory now and at its peak (VmHWM), and the JavaScript heap in use after a collection. */
function memoryReport() {
  const status = readFileSync("/proc/self/status", "utf8");
  const peakRssBytes = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  const rssBytes = process.memoryUsage().rss;
  (globalThis as { gc?: () => void }).gc?.();
  return { rssBytes, peakRssBytes, heapUsedBytes: process.memoryUsage().heapUsed };
}

/** Top-level await is not available: the entry is bundled as CommonJS, like the CLI. */
async function main(): Promise<number> {
  const resolved = resolveModels({
    flags: { provider: "anthropic", model: "fake-model", baseUrl: env.BOWLINE_TUI_BASE_URL },
    env,
    workspaceRoot: cwd,
  });
  if (!resolved.ok) throw new Error(resolved.message);
  // As run.ts does for a terminal: the TUI host exists before the session, which emits to it.
  const tui = env.BOWLINE_TUI_HEADLESS ? undefined : createTuiHost();
  const policy = createNonInteractivePolicy({ yes: yolo, allow: [] });
  const interactivePolicy: ApprovalPolicy = (tool, input) => {
    const decision = policy(tool, input);
    return decision.type === "deny" ? { type: "ask" } : decision;
  };
  const session = await createTaskSession({
    cwd,
    modelConfig: resolved.models.act,
    home: env.BOWLINE_HOME,
    policy: interactivePolicy,
    interactive: true,
    yolo,
    emit: (event) => tui?.emit(event),
  });
  const code = tui
    ? (
        await tui.run(session, {
          cwd,
          prompt: env.BOWLINE_TUI_PROMPT,
          yolo,
          contextWindow: lookupModel(resolved.models.act.provider, resolved.models.act.model).info
            .contextWindow,
        })
      ).code
    : await session
        .run(env.BOWLINE_TUI_PROMPT ?? "")
        .then((outcome) => (outcome.status === "completed" ? 0 : 1));
  await session.close();
  if (env.BOWLINE_TUI_REPORT) {
    writeFileSync(env.BOWLINE_TUI_REPORT, JSON.stringify({ code, ...memoryReport() }));
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`pty-entry: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(70);
  },
);

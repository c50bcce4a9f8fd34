import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScriptedTurn } from "../../../test/support/fake-model-server.js";
import { startFakeModelServer } from "../../../test/support/fake-model-server.js";
import { createNonInteractivePolicy } from "../../coding/approval-rules.js";
import { createTaskSession } from "../../coding/controller.js";
import { createModelClient } from "../../llm/create-client.js";
import type { CliArgs } from "./args.js";
import { createTextRenderer } from "./render-text.js";

const TASK = "The average test fails. Find the bug, fix it and make sure the tests pass.";

/** The scripted model's turns: what a real model would do on this small repository. */
export const DEMO_SCRIPT: ScriptedTurn[] = [
  {
    text: "I'll start by running the tests to see what fails.",
    toolCalls: [{ name: "execute_command", input: { command: "node --test" } }],
  },
  {
    text: "The average test fails. Let me read the implementation.",
    toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }],
  },
  {
    text: "`average` divides by `values.length - 1` instead of `values.length`. Fixing it.",
    toolCalls: [
      {
        name: "replace_in_file",
        input: {
          path: "src/math.js",
          diff: "------- SEARCH\n  return total / (values.length - 1);\n=======\n  return total / values.length;\n+++++++ REPLACE",
        },
      },
    ],
  },
  {
    text: "Running the tests again.",
    toolCalls: [{ name: "execute_command", input: { command: "node --test" } }],
  },
  {
    text: "All tests pass.",
    toolCalls: [
      {
        name: "attempt_completion",
        input: {
          result:
            "Fixed `average` in src/math.js: it divided by `values.length - 1`; it now divides by `values.length`. `node --test` passes (2 tests).",
        },
      },
    ],
  },
];

/** `bowline demo`: a scripted session on a temporary copy of the example repository. */
export async function runDemo(args: CliArgs): Promise<number> {
  const example = join(packageRoot(), "examples", "buggy-calculator");
  const work = mkdtempSync(join(tmpdir(), "bowline-demo-"));
  const repo = join(work, "buggy-calculator");
  cpSync(example, repo, { recursive: true });
  const write = (line: string) => process.stdout.write(`${line}\n`);
  write(
    "Bowline demo: a SCRIPTED model (no API key, no network) fixes a bug in a copy of examples/buggy-calculator.",
  );
  write(`Workspace: ${repo}\n`);
  const server = await startFakeModelServer({ script: DEMO_SCRIPT, chunkSize: 12 });
  try {
    const model = await createModelClient({
      provider: "scripted-demo",
      wireFormat: "anthropic-messages",
      model: "scripted-demo",
      apiKey: "demo-no-key",
      baseUrl: server.url,
    });
    const session = await createTaskSession({
      cwd: repo,
      modelConfig: model.config,
      model,
      home: join(work, "bowline-home"),
      policy: createNonInteractivePolicy({ yes: true, allow: [] }),
      interactive: false,
      emit: createTextRenderer(write),
    });
    const outcome = await session.run(args.prompt ?? TASK);
    await session.close();
    write(`\nThe fixed file is in ${repo}; the session journal is in ${session.taskDir}.`);
    return outcome.status === "completed" ? 0 : 1;
  } finally {
    await server.close();
  }
}

/** The installed package's root (the folder with Bowline's package.json). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (dir !== dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "bowline") return dir;
    dir = dirname(dir);
  }
  throw new Error("Could not find Bowline's package folder (examples/ is missing).");
}

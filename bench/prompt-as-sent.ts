import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { CLI, runProcess } from "./support.js";

/**
 * The prompt budget as actually sent: the first request of a real `bowline -p` run (default
 * variant, every tool the CLI offers on this machine), counted with o200k. Flags add variants.
 */
export async function benchPromptAsSent() {
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-prompt-"));
  const measure = async (format: "anthropic" | "openai", flags: string[]) => {
    const server = await startFakeModelServer({
      script: [{ toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] }],
    });
    try {
      const baseUrl = format === "anthropic" ? server.url : `${server.url}/v1`;
      await runProcess(
        process.execPath,
        [CLI, "-p", "x", "--provider", format, "--base-url", baseUrl, "--model", "bench", ...flags],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH,
            HOME: root,
            BOWLINE_HOME: join(root, "home"),
            ANTHROPIC_API_KEY: "k",
            OPENAI_API_KEY: "k",
          },
        },
      );
      const body = server.requests[0]!.body;
      const system =
        format === "anthropic"
          ? body.system.map((block: { text: string }) => block.text).join("\n")
          : body.messages[0].content;
      const tools = body.tools ?? [];
      const systemTokens = countTokens(system);
      const toolTokens = tools.length ? countTokens(JSON.stringify(tools)) : 0;
      return { tools: tools.length, systemTokens, toolTokens, totalTokens: systemTokens + toolTokens };
    } finally {
      await server.close();
    }
  };
  return {
    anthropic: await measure("anthropic", []),
    openai: await measure("openai", []),
    xml: await measure("openai", ["--tool-protocol", "xml"]),
    compact: await measure("openai", ["--compact"]),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await benchPromptAsSent(), null, 2)}\n`);
}

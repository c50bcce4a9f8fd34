import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnthropicPromptCache } from "../test/support/anthropic-prompt-cache.js";
import { type ScriptedTurn, startFakeModelServer } from "../test/support/fake-model-server.js";
import { CLI, round, runProcess } from "./support.js";

/** A request body with only the breakpoint on the system prompt (what a naive client sends). */
function systemBreakpointOnly(body: any): any {
  const strip = (block: any) => {
    if (block === null || typeof block !== "object") return block;
    const { cache_control: _, ...rest } = block;
    return rest;
  };
  return {
    ...body,
    tools: body.tools?.map(strip),
    messages: body.messages.map((m: any) => ({
      ...m,
      content: typeof m.content === "string" ? m.content : m.content.map(strip),
    })),
  };
}

/**
 * Prompt caching: a 50-turn scripted Anthropic session through the real CLI, with the fake
 * server counting cached input from the breakpoints it receives (Anthropic's rules). Reports
 * the share of input served from the cache per request, from turn 3 on, against a baseline
 * (the same requests with only the system prompt marked) accounted in the same run.
 */
export async function benchPromptCache(turns = 50) {
  const root = mkdtempSync(join(tmpdir(), "bowline-bench-cache-"));
  const repo = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(repo, { recursive: true });
  for (let i = 0; i < 10; i++) {
    writeFileSync(join(repo, `module${i}.js`), `// module ${i}\n${"export const value = 1;\n".repeat(40)}`);
  }
  const script = (_request: unknown, index: number): ScriptedTurn => {
    if (index >= turns - 1) return { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] };
    const step = index + 1;
    const call =
      step % 3 === 0
        ? { name: "search_files", input: { path: ".", regex: `module ${step % 10}` } }
        : { name: "read_file", input: { path: `module${step % 10}.js`, start_line: 1, end_line: 10 + step } };
    return { text: `Step ${step}: looking further.`, toolCalls: [call] };
  };
  const server = await startFakeModelServer({ script, chunkSize: 64, promptCache: true });
  try {
    const run = await runProcess(
      process.execPath,
      [
        CLI,
        "-p",
        "Survey the modules.",
        "--provider",
        "anthropic",
        "--base-url",
        server.url,
        "--model",
        "claude-sonnet-4-5",
        "--yes",
        "--output-format",
        "json",
      ],
      {
        cwd: repo,
        env: { PATH: process.env.PATH, HOME: root, BOWLINE_HOME: home, ANTHROPIC_API_KEY: "bench-key" },
      },
    );
    if (run.code !== 0) throw new Error(`prompt-cache session failed (${run.code}): ${run.stderr}`);
    const share = (u: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }) =>
      u.cacheReadTokens / (u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens);
    const shares = server.requests.map((r) => share(r.promptCache!));
    const baseline = new AnthropicPromptCache();
    const baselineShares = server.requests.map((r) => share(baseline.account(systemBreakpointOnly(r.body))));
    const fromTurn3 = shares.slice(2);
    const baselineFromTurn3 = baselineShares.slice(2);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const totals = server.requests.reduce(
      (sum, r) => ({
        input: sum.input + r.promptCache!.inputTokens,
        read: sum.read + r.promptCache!.cacheReadTokens,
        write: sum.write + r.promptCache!.cacheWriteTokens,
      }),
      { input: 0, read: 0, write: 0 },
    );
    return {
      turns: server.requests.length,
      cachedShareFromTurn3: { min: round(Math.min(...fromTurn3), 3), mean: round(mean(fromTurn3), 3) },
      baselineSystemOnly: {
        min: round(Math.min(...baselineFromTurn3), 3),
        mean: round(mean(baselineFromTurn3), 3),
      },
      tokens: totals,
      met: { above90FromTurn3: Math.min(...fromTurn3) > 0.9 },
    };
  } finally {
    await server.close();
  }
}

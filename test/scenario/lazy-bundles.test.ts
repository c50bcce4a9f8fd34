/**
 * What a start of `bowline -p` loads, read from Node's module log (NODE_DEBUG=module): the run
 * bundle and the adapter of the model in use, and nothing it does not need: not the terminal
 * UI, not the other providers' SDKs, and not the MCP SDK unless an MCP server is configured
 * (then it loads once the server connects).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testServerEntry } from "../coding/mcp/support.js";
import { REPO_ROOT } from "../support/cli.js";
import { closeScenarios, complete, startScenario } from "./scenario.js";

afterEach(closeScenarios);

/** The bundles of dist/ that a run loaded. */
function loadedBundles(stderr: string): string[] {
  const names = [...stderr.matchAll(/dist\/([\w-]+\.c?js)/g)].map((match) => match[1]!);
  return [...new Set(names)].sort();
}

describe("bundles loaded by a print-mode task", () => {
  it("the MCP SDK is in its own bundle, not in the run bundle (a static import would put it there)", () => {
    // A message only the SDK's client sends, in the handshake.
    const marker = "notifications/initialized";
    expect(readFileSync(join(REPO_ROOT, "dist", "mcp-sdk.cjs"), "utf8")).toContain(marker);
    expect(readFileSync(join(REPO_ROOT, "dist", "run.cjs"), "utf8")).not.toContain(marker);
  });

  it("without MCP servers: the run bundle and the model's adapter only", async () => {
    const s = await startScenario("anthropic", [complete()]);
    const run = await s.run("Say done.", [], { env: { NODE_DEBUG: "module" } });
    expect(run.code).toBe(0);
    expect(loadedBundles(run.stderr)).toEqual(["cli.js", "llm-anthropic-messages.cjs", "run.cjs"]);
  });

  it("with an MCP server: the MCP SDK too, for the server's connection", async () => {
    const s = await startScenario("anthropic", [
      // The server is connected by the second request (servers start with the first).
      { text: "Looking." },
      complete(),
    ]);
    mkdirSync(s.home, { recursive: true });
    writeFileSync(join(s.home, "mcp.json"), JSON.stringify({ mcpServers: { probe: testServerEntry() } }));
    const run = await s.run("Say done.", [], { env: { NODE_DEBUG: "module" }, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(loadedBundles(run.stderr)).toEqual([
      "cli.js",
      "llm-anthropic-messages.cjs",
      "mcp-sdk.cjs",
      "run.cjs",
    ]);
  });
});

/**
 * The sandbox probe's answer is remembered between starts, so a start spawns no bubblewrap
 * before its first request; the remembered answer is what the start uses, and it is checked
 * again once the request is out, for the next start.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { detectSandbox } from "../../src/coding/safety/sandbox.js";
import { closeScenarios, startScenario } from "./scenario.js";

afterEach(closeScenarios);

const probe = await detectSandbox({});

describe.runIf(probe.available)("the remembered sandbox probe", () => {
  it("is used by the next start and corrected after its first request", async () => {
    // A reply that streams for a while: the check after the first request has time to finish.
    const slowReply = {
      text: "Looking at it. ".repeat(20),
      chunkDelayMs: 40,
      toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }],
    };
    const s = await startScenario("anthropic", () => slowReply);
    const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-cache-"));
    const file = path.join(cacheHome, "bowline", "sandbox-probe.json");
    const run = () =>
      s.run("Hello.", ["--output-format", "stream-json"], { env: { XDG_CACHE_HOME: cacheHome } });
    try {
      expect((await run()).code).toBe(0);
      const first = JSON.parse(fs.readFileSync(file, "utf8"));
      expect(first.result).toMatchObject({ available: true });
      // A remembered answer the start cannot tell from a real one.
      fs.writeFileSync(
        file,
        JSON.stringify({ ...first, result: { available: false, reason: "REMEMBERED" } }),
      );
      const second = await run();
      expect(second.code).toBe(0);
      expect(second.stdout).toContain("Commands run without a sandbox: REMEMBERED");
      // Checked again after the first request: the next start gets the real answer.
      expect(JSON.parse(fs.readFileSync(file, "utf8")).result).toMatchObject({ available: true });
    } finally {
      fs.rmSync(cacheHome, { recursive: true, force: true });
    }
  });
});

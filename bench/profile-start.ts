import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeModelServer } from "../test/support/fake-model-server.js";
import { CLI, now } from "./support.js";

/** Developer aid: runs one print-mode start with extra node flags (e.g. --cpu-prof) and prints the time to the first request. */
const server = await startFakeModelServer({
  script: [{ text: "ok", toolCalls: [{ name: "attempt_completion", input: { result: "ok" } }] }],
});
const root = mkdtempSync(join(tmpdir(), "bowline-profile-"));
const flags = process.argv.slice(2);
const started = now();
const child = spawn(
  process.execPath,
  [...flags, CLI, "-p", "hi", "--provider", "anthropic", "--base-url", server.url, "--model", "m"],
  {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: root,
      XDG_CACHE_HOME: "/tmp/bowline-profile-cache",
      BOWLINE_NO_CODE_CACHE: process.env.BOWLINE_NO_CODE_CACHE,
      BOWLINE_HOME: join(root, "home"),
      ANTHROPIC_API_KEY: "k",
    },
    stdio: "inherit",
  },
);
await new Promise((resolve) => child.on("close", resolve));
console.log(`first request after ${(server.requests[0]!.receivedAt - started).toFixed(1)} ms`);
await server.close();

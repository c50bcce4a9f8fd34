/**
 * A tour of the less-travelled tools through the real CLI: apply_patch and new_task (GPT
 * variant), list_code_definition_names, web_fetch against a local server, and background
 * commands with command_output. Each test checks what the model receives and what is on disk.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeScenarios,
  complete,
  type Format,
  resultOf,
  sentToolResults,
  startScenario,
} from "./scenario.js";

afterEach(closeScenarios);

const GPT = ["--model", "gpt-5"];
const offeredTools = (body: any): string[] =>
  (body.tools ?? []).map((tool: any) => tool.name ?? tool.function?.name);
const call = (name: string, input: unknown, id?: string) => ({
  toolCalls: [{ ...(id ? { id } : {}), name, input }],
});

const FIX_PATCH = `*** Begin Patch
*** Update File: src/math.js
@@ export function average(values) {
   if (values.length === 0) return 0;
   let total = 0;
   for (const value of values) total = add(total, value);
-  return total / (values.length - 1);
+  return total / values.length;
 }
*** Add File: src/sum.js
+import { add } from "./math.js";
+
+export const sum = (values) => values.reduce(add, 0);
*** End Patch`;

const BAD_PATCH = "*** Begin Patch\n*** Frobnicate File: src/math.js\n+oops\n*** End Patch";

describe("apply_patch (gpt variant)", () => {
  it.each<Format>(["openai", "anthropic"])(
    "is offered instead of write_to_file, patches and adds files, refuses a malformed patch (%s)",
    async (format) => {
      const s = await startScenario(format, [
        call("apply_patch", { input: FIX_PATCH }),
        call("apply_patch", { input: BAD_PATCH }),
        complete("Fixed."),
      ]);
      const before = readFileSync(join(s.repo, "src/math.js"), "utf8");
      const run = await s.run("Fix average.", [...GPT, "--yes", "--output-format", "json"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(resultOf(run)).toMatchObject({ status: "completed", result: "Fixed." });

      const tools = offeredTools(s.server.requests[0]!.body);
      expect(tools).toContain("apply_patch");
      expect(tools).not.toContain("write_to_file");
      expect(tools).not.toContain("replace_in_file");

      const [applied] = sentToolResults(s.server.requests[1]!);
      expect(applied!.text).toContain("Updated src/math.js (+1 -1)");
      expect(applied!.text).toContain("Added src/sum.js (3 lines)");
      if (format === "anthropic") expect(applied!.isError).toBe(false);
      const after = readFileSync(join(s.repo, "src/math.js"), "utf8");
      expect(after).toBe(before.replace("(values.length - 1)", "values.length"));
      expect(readFileSync(join(s.repo, "src/sum.js"), "utf8")).toBe(
        'import { add } from "./math.js";\n\nexport const sum = (values) => values.reduce(add, 0);\n',
      );

      const [malformed] = sentToolResults(s.server.requests[2]!);
      expect(malformed!.text).toContain(
        'The patch is malformed: line 2 ("*** Frobnicate File: src/math.js") should start a file with',
      );
      expect(malformed!.text).toContain("A patch looks like this:");
      if (format === "anthropic") expect(malformed!.isError).toBe(true);
      expect(readFileSync(join(s.repo, "src/math.js"), "utf8")).toBe(after);
    },
  );

  it("a patch whose context does not match changes no file at all", async () => {
    const patch = FIX_PATCH.replace("   let total = 0;", "   let total = 1;");
    const s = await startScenario("openai", [call("apply_patch", { input: patch }), complete()]);
    const before = readFileSync(join(s.repo, "src/math.js"), "utf8");
    const run = await s.run("Fix average.", [...GPT, "--yes"]);
    expect(run.code).toBe(0);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result!.text).toContain("No file was changed.");
    expect(readFileSync(join(s.repo, "src/math.js"), "utf8")).toBe(before);
    expect(() => readFileSync(join(s.repo, "src/sum.js"))).toThrow();
  });
});

describe("new_task (gpt variant)", () => {
  it("ends the run with the structured handoff as the result", async () => {
    const handoff = {
      current_work: "Fixing average() in src/math.js.",
      key_concepts: "ES modules; node --test.",
      relevant_files: "src/math.js: the bug; test/math.test.js: the tests.",
      problems_solved: "Found the off-by-one divisor.",
      next_steps: "Divide by values.length and run npm test.",
    };
    const s = await startScenario("openai", [call("new_task", handoff), complete("never")]);
    const run = await s.run("Fix average.", [...GPT, "--output-format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(offeredTools(s.server.requests[0]!.body)).toContain("new_task");
    expect(s.server.requests).toHaveLength(1);
    const result = resultOf(run);
    expect(result.status).toBe("completed");
    expect(result.result).toContain("# Continuing an earlier task");
    expect(result.result).toContain("## Current work\nFixing average() in src/math.js.");
    expect(result.result).toContain("## Next steps\nDivide by values.length and run npm test.");
  });
});

describe("list_code_definition_names", () => {
  it.each<Format>(["anthropic", "openai"])("lists add and average from src/math.js (%s)", async (format) => {
    const s = await startScenario(format, [call("list_code_definition_names", { path: "src" }), complete()]);
    const run = await s.run("Outline src.", []);
    expect(run.code).toBe(0);
    const [result] = sentToolResults(s.server.requests[1]!);
    expect(result!.text).toMatch(/^src\/math\.js$/m);
    expect(result!.text).toMatch(/2 \| export function add\(a, b\) \{/);
    expect(result!.text).toMatch(/7 \| export function average\(values\) \{/);
    expect(result!.text).not.toContain("return a + b");
  });
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("web_fetch", () => {
  let site: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve())));

  it("returns an HTML page as Markdown and refuses a binary response", async () => {
    site = createServer((req, res) => {
      if (req.url === "/logo.png") {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]));
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        "<html><head><title>Docs</title><script>alert('x')</script></head><body>" +
          "<h1>Calculator docs</h1><p>Use <strong>average</strong> for means.</p>" +
          '<ul><li>add</li><li>average</li></ul><a href="/more">More</a></body></html>',
      );
    });
    const base = await listen(site);
    const s = await startScenario("anthropic", [
      call("web_fetch", { url: `${base}/docs` }),
      call("web_fetch", { url: `${base}/logo.png` }),
      complete(),
    ]);
    const run = await s.run("Read the docs.", []);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [page] = sentToolResults(s.server.requests[1]!);
    expect(page!.isError).toBe(false);
    expect(page!.text).toContain("# Calculator docs");
    expect(page!.text).toContain("**average**");
    expect(page!.text).toMatch(/^[-*]\s+add$/m);
    expect(page!.text).not.toContain("<h1>");
    expect(page!.text).not.toContain("alert(");
    const [binary] = sentToolResults(s.server.requests[2]!);
    expect(binary!.isError).toBe(true);
    expect(binary!.text).toContain("The content is not text (image/png)");
    expect(binary!.text).not.toContain("PNG");
  });
});

const SERVER_SCRIPT = `
import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
writeFileSync("server.pid", String(process.pid));
const server = createServer((req, res) => { console.log("request " + req.url); res.end("ok"); });
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  writeFileSync("server.port", String(port));
  console.log("listening on " + port);
});
`;

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

/**
 * Sandboxed commands reach one another's servers only through the network (each has a localhost
 * of its own without it); a process id a command prints is its sandbox's, so the server's end
 * shows as refused connections.
 */
function allowNetwork(home: string): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "approvals.json"), JSON.stringify({ sandbox: { network: true } }));
}

describe("background commands", () => {
  it("starts a server, reads its new output, stops it; the server is gone afterwards", async () => {
    let port = 0;
    const s = await startScenario("anthropic", (_request, index) => {
      if (index === 0) return call("execute_command", { command: "node server.mjs", background: true });
      if (index === 1) {
        port = Number(readFileSync(join(s.repo, "server.port"), "utf8"));
        return call("execute_command", { command: `curl -s http://127.0.0.1:${port}/ping` });
      }
      if (index === 2) return call("command_output", { id: "bg-1" });
      if (index === 3) return call("command_output", { id: "bg-1", action: "stop" });
      return complete("Server checked.");
    });
    writeFileSync(join(s.repo, "server.mjs"), SERVER_SCRIPT);
    allowNetwork(s.home);
    const run = await s.run("Start the server.", ["--yes", "--output-format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed", result: "Server checked." });

    const [started] = sentToolResults(s.server.requests[1]!);
    expect(started!.text).toContain("Command started in the background as bg-1");
    expect(started!.text).toContain(`listening on ${port}`);
    const [curl] = sentToolResults(s.server.requests[2]!);
    expect(curl!.text).toContain("ok");
    const [read] = sentToolResults(s.server.requests[3]!);
    expect(read!.text).toMatch(/bg-1 \(node server\.mjs\), running for \d+s/);
    expect(read!.text).toContain("request /ping");
    expect(read!.text).not.toContain("listening on");
    const [stopped] = sentToolResults(s.server.requests[4]!);
    expect(stopped!.text).toContain("Stopped bg-1");

    expect(await refusesConnections(port)).toBe(true);
  });

  it("a background command still running when the task ends is killed at close", async () => {
    const s = await startScenario("anthropic", [
      call("execute_command", { command: "node server.mjs", background: true }),
      complete("Left it running."),
    ]);
    writeFileSync(join(s.repo, "server.mjs"), SERVER_SCRIPT);
    allowNetwork(s.home);
    const run = await s.run("Start the server.", ["--yes", "--output-format", "json"]);
    expect(run.code).toBe(0);
    expect(resultOf(run)).toMatchObject({ status: "completed" });
    const port = Number(readFileSync(join(s.repo, "server.port"), "utf8"));
    expect(await refusesConnections(port)).toBe(true);
  });
});

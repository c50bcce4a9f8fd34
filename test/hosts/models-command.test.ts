import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/hosts/cli/args.js";
import { type ModelsReport, runModelsCommand } from "../../src/hosts/cli/models.js";
import { probeProvider } from "../../src/hosts/cli/models-probe.js";

const SECRET = "sk-test-0123456789abcdef";

/** Stands in for Ollama (/api/tags), LM Studio (/v1/models) and a keyed API (/v1/models with a key). */
let server: Server;
let url: string;
const requests: Array<{ path: string; headers: IncomingMessage["headers"] }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/api/tags") {
      json(200, {
        models: [
          { name: "qwen2.5-coder:7b", size: 1 },
          { name: "llama3.1:8b", size: 2 },
        ],
      });
    } else if (req.url === "/v1/models" && req.headers["x-api-key"] !== undefined) {
      json(req.headers["x-api-key"] === "right-key" ? 200 : 401, { error: { message: "invalid x-api-key" } });
    } else if (req.url === "/v1/models") {
      json(200, { object: "list", data: [{ id: "qwen2.5-coder-7b-instruct", object: "model" }] });
    } else {
      json(404, { error: "not found" });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let home: string;
let workspace: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "bowline-models-"));
  workspace = join(home, "repo");
  mkdirSync(workspace);
  requests.length = 0;
});

afterEach(() => rmSync(home, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const args = parseCliArgs(["models", ...argv], workspace);
  const code = await runModelsCommand(args, {
    env: { BOWLINE_HOME: home, ...env },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    probeTimeoutMs: 1000,
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

/** The table row of a provider. */
function row(stdout: string, name: string): string {
  return stdout.split("\n").find((line) => line.trimStart().startsWith(`${name} `)) ?? "";
}

describe("bowline models", () => {
  it("is a command of its own, with --check", () => {
    expect(parseCliArgs(["models", "--check"], "/w")).toMatchObject({ command: "models", check: true });
    expect(parseCliArgs(["models"], "/w")).toMatchObject({ command: "models", check: false });
  });

  it("lists every preset: wire format, key status, base URL, default model; never a key", async () => {
    const { code, stdout, stderr } = await run([], { ANTHROPIC_API_KEY: SECRET, AWS_REGION: "eu-west-1" });
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(row(stdout, "anthropic")).toMatch(
      /^ {2}anthropic +anthropic-messages +key set \(ANTHROPIC_API_KEY\) +https:\/\/api\.anthropic\.com +claude-sonnet-5-5$/,
    );
    expect(row(stdout, "gemini")).toContain("missing: GEMINI_API_KEY or GOOGLE_API_KEY");
    expect(row(stdout, "bedrock")).toContain("AWS credential chain, eu-west-1");
    expect(row(stdout, "ollama")).toMatch(/no key needed +http:\/\/localhost:11434\/v1 +qwen2\.5-coder/);
    expect(row(stdout, "vllm")).toMatch(/\(needs --base-url\) +\(needs --model\)/);
    expect(row(stdout, "openrouter")).toContain("missing: OPENROUTER_API_KEY");
    expect(stdout).toContain("Selected model: claude-sonnet-5-5 on anthropic (anthropic-messages)");
    expect(stdout).toContain("1,000,000-token context, 128,000-token replies, images, reasoning");
    expect(stdout).toContain("$2 input, $10 output per million tokens (cache read $0.2, cache write $2.5)");
    expect(stdout).not.toContain(SECRET);
  });

  it("says when the selected model is unknown, and when none is selected", async () => {
    const unknown = await run([
      "--provider",
      "my-server",
      "--base-url",
      `${url}/v1`,
      "--model",
      "my-finetune",
    ]);
    expect(unknown.stdout).toContain("Selected model: my-finetune on my-server (openai-chat)");
    expect(unknown.stdout).toContain(
      "unknown model, safe defaults: 128,000-token context, 8,192-token replies",
    );
    expect(unknown.stdout).toContain("prices unknown");
    const none = await run([]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("Selected model: none. No model is configured");
  });

  it("shows the plan-mode model from the settings, and a key found there without showing it", async () => {
    writeFileSync(
      join(home, "settings.json"),
      JSON.stringify({ provider: "openai", keys: { openai: SECRET }, planModel: "o3" }),
      { mode: 0o600 },
    );
    const { stdout } = await run([]);
    expect(row(stdout, "openai")).toContain("key set (settings)");
    expect(row(stdout, "openai-responses")).toContain("key set (settings)");
    expect(stdout).toContain("Selected model: gpt-4.1 on openai");
    expect(stdout).toContain("Plan-mode model: o3 on openai");
    expect(stdout).not.toContain(SECRET);
  });

  it("exits 2 on an invalid settings file, naming it", async () => {
    writeFileSync(join(home, "settings.json"), JSON.stringify({ maxOutputTokens: "lots" }));
    const { code, stderr, stdout } = await run([]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`${join(home, "settings.json")} is invalid`);
    expect(stderr).toContain("maxOutputTokens");
  });

  it("prints JSON with --output-format json, without keys", async () => {
    const { stdout } = await run(["--output-format", "json"], { OPENROUTER_API_KEY: SECRET });
    const report = JSON.parse(stdout) as ModelsReport;
    expect(report.providers.find((p) => p.name === "openrouter")?.key).toEqual({
      state: "found",
      from: "OPENROUTER_API_KEY",
    });
    expect(report.selected).toEqual([expect.objectContaining({ provider: "openrouter", known: true })]);
    expect(stdout).not.toContain(SECRET);
  });
});

describe("bowline models --check", () => {
  it("lists the models of local Ollama and LM Studio servers", async () => {
    writeFileSync(
      join(home, "settings.json"),
      JSON.stringify({
        provider: "ollama",
        baseUrl: `${url}/v1`,
        planModel: { provider: "lmstudio", model: "qwen2.5-coder-7b-instruct", baseUrl: `${url}/v1` },
      }),
    );
    const { code, stdout } = await run(["--check"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Reachability:");
    expect(stdout).toMatch(/ {2}ollama +reachable, 2 model\(s\)/);
    expect(stdout).toContain("ollama models: qwen2.5-coder:7b, llama3.1:8b");
    expect(stdout).toMatch(/ {2}lmstudio +reachable, 1 model\(s\)/);
    expect(stdout).toContain("lmstudio models: qwen2.5-coder-7b-instruct");
    expect(requests.map((r) => r.path).sort()).toEqual(["/api/tags", "/v1/models"]);
    // Providers without a key are not asked.
    expect(stdout).not.toMatch(/ {2}openrouter +(reachable|unreachable)/);
  });

  it("sends the key the wire format expects and reports a refused one, without printing it", async () => {
    const refused = await run(["--check"], { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: url });
    expect(refused.stdout).toMatch(/ {2}anthropic +reachable, but the key was refused \(HTTP 401\)/);
    expect(refused.stdout).not.toContain(SECRET);
    const sent = requests.find((r) => r.headers["x-api-key"] !== undefined);
    expect(sent?.headers).toMatchObject({ "x-api-key": SECRET, "anthropic-version": "2023-06-01" });
    const accepted = await run(["--check"], { ANTHROPIC_API_KEY: "right-key", ANTHROPIC_BASE_URL: url });
    expect(accepted.stdout).toMatch(/ {2}anthropic +reachable \(HTTP 200\)/);
  });

  it("probes a preset moved to a server of yours, which needs no key", async () => {
    const { stdout } = await run([
      "--check",
      "--provider",
      "openai",
      "--base-url",
      `${url}/v1`,
      "--model",
      "m",
    ]);
    expect(row(stdout, "openai")).toMatch(
      /openai-chat +no key needed +http:\/\/127\.0\.0\.1:\d+\/v1 +gpt-4\.1/,
    );
    expect(stdout).toMatch(/ {2}openai +reachable \(HTTP 200\)/);
    expect(requests.find((r) => r.path === "/v1/models")?.headers.authorization).toBeUndefined();
  });

  it("reports a server that does not answer as unreachable, and Bedrock as not checked", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await probeProvider(
      { name: "vllm", wireFormat: "openai-chat", baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: SECRET },
      1000,
    );
    expect(result).toEqual({ name: "vllm", state: "unreachable", detail: "unreachable: ECONNREFUSED" });
    const bedrock = await probeProvider({ name: "bedrock", wireFormat: "bedrock-converse", apiKey: "" });
    expect(bedrock.state).toBe("not-checked");
  });

  it("gives up on a server that does not answer in time", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const result = await probeProvider(
        {
          name: "ollama",
          wireFormat: "openai-chat",
          baseUrl: `http://127.0.0.1:${port}/v1`,
          apiKey: "not-needed",
        },
        200,
      );
      expect(result).toEqual({
        name: "ollama",
        state: "unreachable",
        detail: "unreachable: no answer within 0.2 s",
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

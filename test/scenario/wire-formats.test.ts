/**
 * One real task through the CLI over each wire format, through each official SDK against the
 * fake model server: streamed reasoning and text, tool calls, their results (text and an image)
 * sent back in the format's own shape, usage and cost from the catalogue's prices.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, parseJsonLines, runCli } from "../support/cli.js";
import {
  type FakeModelServer,
  type ScriptedTurn,
  startFakeModelServer,
} from "../support/fake-model-server.js";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

interface FormatSetup {
  name: string;
  provider: string;
  model: string;
  baseUrl(server: FakeModelServer): string;
  env: Record<string, string>;
  secret: string;
}

const FORMATS: FormatSetup[] = [
  {
    name: "Anthropic Messages",
    provider: "anthropic",
    model: "claude-haiku-4-5",
    baseUrl: (s) => s.url,
    env: { ANTHROPIC_API_KEY: "sk-ant-wire-Qx81secret" },
    secret: "sk-ant-wire-Qx81secret",
  },
  {
    name: "OpenAI Chat Completions",
    provider: "openai",
    model: "gpt-4.1",
    baseUrl: (s) => `${s.url}/v1`,
    env: { OPENAI_API_KEY: "sk-wire-Lk22secret" },
    secret: "sk-wire-Lk22secret",
  },
  {
    name: "OpenAI Responses",
    provider: "openai-responses",
    model: "gpt-5",
    baseUrl: (s) => `${s.url}/v1`,
    env: { OPENAI_API_KEY: "sk-wire-Rr93secret" },
    secret: "sk-wire-Rr93secret",
  },
  {
    name: "Gemini",
    provider: "gemini",
    model: "gemini-2.5-pro",
    baseUrl: (s) => s.url,
    env: { GEMINI_API_KEY: "AIza-wire-Gm44secret" },
    secret: "AIza-wire-Gm44secret",
  },
  {
    name: "Bedrock Converse",
    provider: "bedrock",
    model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    baseUrl: (s) => s.url,
    env: {
      AWS_ACCESS_KEY_ID: "AKIAWIRETEST00000000",
      AWS_SECRET_ACCESS_KEY: "wire-Bd55secret-access-key",
      AWS_REGION: "eu-west-1",
    },
    secret: "wire-Bd55secret-access-key",
  },
];

const usage = { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 3000 };
const script: ScriptedTurn[] = [
  {
    reasoning: "The average looks wrong; read the code first.",
    text: "Reading the code.",
    toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }],
    usage,
  },
  { text: "And the logo.", toolCalls: [{ name: "read_file", input: { path: "logo.png" } }], usage },
  { toolCalls: [{ name: "attempt_completion", input: { result: "Read both." } }], usage },
];

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(FORMATS)("$name", (format) => {
  it("runs a task: reasoning, tool calls, text and image results, usage and cost", async () => {
    server = await startFakeModelServer({ script });
    const { repo, home } = makeWorkspace();
    writeFileSync(join(repo, "logo.png"), Buffer.from(PNG, "base64"));
    const run = await runCli(
      [
        "-p",
        "Look at the average function and the logo.",
        "--provider",
        format.provider,
        "--base-url",
        format.baseUrl(server),
        "--model",
        format.model,
        "--output-format",
        "stream-json",
      ],
      { cwd: repo, env: { ...format.env, BOWLINE_HOME: home } },
    );

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const result = events.at(-1);
    expect(result).toMatchObject({ status: "completed", result: "Read both.", turns: 3 });
    // Usage from the wire, priced from the catalogue.
    expect(result.usage.outputTokens).toBe(240);
    expect(result.usage.cacheReadTokens).toBe(9000);
    expect(result.usage.costUsd).toBeGreaterThan(0);
    // Reasoning and text were streamed to the UI.
    const said = events.flatMap((e) =>
      e.type === "ui_message_updated" || e.type === "ui_message_added" ? [e.message.payload] : [],
    );
    expect(said.some((p) => p.say === "reasoning" && p.text.includes("read the code first"))).toBe(true);
    expect(said.some((p) => p.say === "text" && p.text === "Reading the code.")).toBe(true);

    expect(server.requests).toHaveLength(3);
    const [, second, third] = server.requests.map((r) => JSON.stringify(r.body));
    expect(second).toContain("total / (values.length - 1)");
    expect(third).toContain(PNG);
    // The credentials reached the server (so the next check means something) and nowhere else.
    expect(JSON.stringify(server.requests[0]!.headers)).not.toBe("{}");
    expect(run.stdout).not.toContain(format.secret);
  }, 30_000);
});

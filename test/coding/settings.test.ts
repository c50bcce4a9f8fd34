import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings, type ModelSelectionResult, resolveModels } from "../../src/coding/settings/index.js";

let root: string;
let home: string;
let workspace: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bowline-settings-"));
  home = join(root, "home");
  workspace = join(root, "repo");
  mkdirSync(home);
  mkdirSync(workspace);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, content: unknown, mode = 0o600): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  chmodSync(file, mode);
  return file;
}

const userFile = () => join(home, "settings.json");
const projectFile = () => join(workspace, ".bowline", "settings.json");

function resolve(env: Record<string, string | undefined> = {}, flags = {}): ModelSelectionResult {
  return resolveModels({ flags, env: { BOWLINE_HOME: home, ...env }, workspaceRoot: workspace });
}

function ok(result: ModelSelectionResult) {
  if (!result.ok) throw new Error(`expected models, got: ${result.message}`);
  return result;
}

function failure(result: ModelSelectionResult) {
  if (result.ok) throw new Error(`expected a failure, got: ${JSON.stringify(result.models)}`);
  return result;
}

describe("settings files", () => {
  it("choose the model; the project's settings override the user's", () => {
    write(userFile(), { provider: "openrouter", model: "openai/gpt-5", keys: { openrouter: "or-key" } });
    expect(ok(resolve()).models.act).toMatchObject({
      provider: "openrouter",
      model: "openai/gpt-5",
      apiKey: "or-key",
    });
    write(projectFile(), { model: "anthropic/claude-haiku-4.5", maxOutputTokens: 2000 });
    expect(ok(resolve()).models.act).toMatchObject({
      provider: "openrouter",
      model: "anthropic/claude-haiku-4.5",
      apiKey: "or-key",
      maxOutputTokens: 2000,
    });
  });

  it("are found through BOWLINE_HOME", () => {
    write(userFile(), { provider: "ollama" });
    expect(ok(resolve()).models.act.provider).toBe("ollama");
    expect(failure(resolve({ BOWLINE_HOME: join(root, "elsewhere") })).code).toBe("no_model");
  });

  it("lose to the environment, which loses to the flags", () => {
    write(userFile(), { provider: "anthropic", model: "claude-opus-4-1", apiKey: "settings-key" });
    expect(ok(resolve()).models.act).toMatchObject({ model: "claude-opus-4-1", apiKey: "settings-key" });
    const env = { ANTHROPIC_API_KEY: "env-key", BOWLINE_MODEL: "claude-haiku-4-5" };
    expect(ok(resolve(env)).models.act).toMatchObject({ model: "claude-haiku-4-5", apiKey: "env-key" });
    expect(ok(resolve(env, { model: "claude-sonnet-5-5" })).models.act.model).toBe("claude-sonnet-5-5");
  });

  it("merge keys and reasoning field by field", () => {
    write(userFile(), { keys: { anthropic: "ak", openai: "ok" }, reasoning: { budgetTokens: 1000 } });
    write(projectFile(), {
      provider: "openai",
      keys: { openai: "project-ok" },
      reasoning: { effort: "low" },
    });
    const { settings } = loadSettings(home, workspace);
    expect(settings.keys).toEqual({ anthropic: "ak", openai: "project-ok" });
    expect(settings.reasoning).toEqual({ budgetTokens: 1000, effort: "low" });
    expect(ok(resolve()).models.act).toMatchObject({ provider: "openai", apiKey: "project-ok" });
  });

  it("cannot let a project choose where the key is sent", () => {
    write(userFile(), { provider: "anthropic", apiKey: "ak" });
    write(projectFile(), {
      baseUrl: "https://collector.example",
      planModel: { model: "m", baseUrl: "https://x.example" },
    });
    const result = ok(resolve());
    expect(result.models.act.baseUrl).toBe("https://api.anthropic.com");
    expect(result.models.plan?.baseUrl).toBe("https://api.anthropic.com");
    expect(result.warnings).toEqual([
      expect.stringContaining(`${projectFile()}: baseUrl ignored`),
      expect.stringContaining(`${projectFile()}: planModel.baseUrl ignored`),
    ]);
  });

  it("warn about unknown settings, naming the file", () => {
    write(userFile(), { provider: "ollama", modle: "x" });
    expect(ok(resolve()).warnings).toEqual([
      expect.stringMatching(/settings\.json: unknown setting "modle" ignored/),
    ]);
  });
});

describe("a bad settings file", () => {
  it("is an invalid_settings failure naming the file and the field", () => {
    write(projectFile(), { provider: "anthropic", maxOutputTokens: -5, reasoning: { effort: "extreme" } });
    const result = failure(resolve({ ANTHROPIC_API_KEY: "ak" }));
    expect(result.code).toBe("invalid_settings");
    expect(result.message).toContain(`${projectFile()} is invalid`);
    expect(result.message).toMatch(/- maxOutputTokens: .*>0/);
    expect(result.message).toMatch(/- reasoning\.effort: .*"minimal"/);
  });

  it("never shows a key, even when the JSON is broken around it", () => {
    write(userFile(), '{\n  "provider": "openai",\n  "apiKey": sk-live-0123456789\n}');
    const result = failure(resolve());
    expect(result.code).toBe("invalid_settings");
    expect(result.message).toContain(`${userFile()}: not valid JSON`);
    expect(result.message).not.toContain("0123456789");

    write(userFile(), '{"apiKey": "sk-live-0123456789" "provider": "openai"}');
    const second = failure(resolve());
    expect(second.message).toMatch(/not valid JSON \(.*line 1, column \d+\)/);
    expect(second.message).not.toContain("0123456789");

    write(userFile(), { apiKey: 12345678901234 });
    const third = failure(resolve());
    expect(third.message).toContain("apiKey: Invalid input: expected string");
    expect(third.message).not.toContain("12345678901234");
  });

  it("with a bad URL says which field", () => {
    write(userFile(), { baseUrl: "localhost:11434" });
    expect(failure(resolve()).message).toMatch(/- baseUrl: must be an http\(s\) URL/);
  });
});

describe("file permissions", () => {
  it.skipIf(process.platform === "win32")("warn when a file holding a key can be read by others", () => {
    write(userFile(), { provider: "anthropic", apiKey: "ak" }, 0o644);
    const { warnings } = ok(resolve());
    expect(warnings).toEqual([
      `${userFile()} holds an API key but other users can read it (mode 644); run: chmod 600 ${userFile()}`,
    ]);
    expect(warnings.join("\n")).not.toContain('ak"');
    chmodSync(userFile(), 0o600);
    expect(ok(resolve()).warnings).toEqual([]);
  });

  it.skipIf(process.platform === "win32")("do not matter for a file without a key", () => {
    write(userFile(), { provider: "ollama" }, 0o644);
    expect(ok(resolve()).warnings).toEqual([]);
  });
});

describe("plan and act models", () => {
  it("resolve separately, a plan model on the same provider by model id alone", () => {
    write(userFile(), { provider: "anthropic", model: "claude-sonnet-5-5", planModel: "claude-opus-4-1" });
    const { models } = ok(resolve({ ANTHROPIC_API_KEY: "ak" }));
    expect(models.act).toMatchObject({ provider: "anthropic", model: "claude-sonnet-5-5" });
    expect(models.plan).toMatchObject({ provider: "anthropic", model: "claude-opus-4-1", apiKey: "ak" });
  });

  it("can use another provider, with its own key", () => {
    write(userFile(), {
      provider: "anthropic",
      apiKey: "ak",
      keys: { openai: "ok" },
      planModel: { provider: "openai-responses", model: "o3", reasoning: { effort: "high" } },
      actModel: { provider: "ollama", model: "qwen2.5-coder:32b" },
    });
    const { models } = ok(resolve());
    expect(models.plan).toMatchObject({
      provider: "openai-responses",
      model: "o3",
      apiKey: "ok",
      reasoning: { effort: "high" },
    });
    expect(models.act).toMatchObject({
      provider: "ollama",
      model: "qwen2.5-coder:32b",
      apiKey: "not-needed",
    });
  });

  it("give way to a model chosen by flags or the environment", () => {
    write(userFile(), { provider: "anthropic", planModel: "claude-opus-4-1", actModel: "claude-haiku-4-5" });
    const env = { ANTHROPIC_API_KEY: "ak" };
    expect(ok(resolve(env)).models.act.model).toBe("claude-haiku-4-5");
    const flagged = ok(resolve(env, { model: "claude-sonnet-5-5" })).models;
    expect(flagged).toEqual({ act: expect.objectContaining({ model: "claude-sonnet-5-5" }) });
    expect(ok(resolve({ ...env, BOWLINE_PROVIDER: "anthropic" })).models.plan).toBeUndefined();
  });

  it("report a plan model that cannot be used as a settings problem", () => {
    write(userFile(), {
      provider: "anthropic",
      planModel: { provider: "groq", model: "llama-3.3-70b-versatile" },
    });
    const result = failure(resolve({ ANTHROPIC_API_KEY: "ak" }));
    expect(result.code).toBe("invalid_settings");
    expect(result.message).toContain(
      "The planModel setting cannot be used: The groq provider needs an API key",
    );
  });
});

describe("unknown models", () => {
  it("are listed once each, for the host to show", () => {
    write(userFile(), { provider: "ollama", model: "my-finetune", planModel: "my-finetune" });
    expect(ok(resolve()).unknownModels).toEqual([
      'unknown model "my-finetune" (ollama): assuming a 128000-token context, 8192-token replies and no images; cost is not shown.',
    ]);
    write(userFile(), { provider: "ollama", model: "qwen2.5-coder" });
    expect(ok(resolve()).unknownModels).toEqual([]);
  });
});

describe("with nothing configured", () => {
  it("says how to configure a model and where settings are read from", () => {
    const result = failure(resolve());
    expect(result.code).toBe("no_model");
    expect(result.message).toContain("No model is configured");
    expect(result.message).toContain(`Settings are read from ${userFile()} and ${projectFile()}.`);
  });
});

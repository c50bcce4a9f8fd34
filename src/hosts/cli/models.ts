/** `bowline models [--check]`: the providers Bowline knows, which are configured, and the model selected. */

import { bowlineHome } from "../../coding/session/paths.js";
import {
  type LoadedSettings,
  loadSettings,
  selectModels,
  settingsDefaults,
} from "../../coding/settings/index.js";
import { lookupModel } from "../../llm/catalogue.js";
import { type Env, findApiKey, type ModelDefaults, NO_KEY_NEEDED } from "../../llm/config.js";
import { PRESETS, type ProviderPreset } from "../../llm/presets.js";
import type { ModelConfig, ModelInfo, WireFormat } from "../../llm/types.js";
import type { CliArgs } from "./args.js";
import { type ProbeResult, type ProbeTarget, probeProvider } from "./models-probe.js";

/** How a provider is authorised as things stand; never the key itself. */
export type KeyStatus =
  | { state: "found"; from: string }
  | { state: "missing"; vars: string[] }
  | { state: "not-needed" }
  | { state: "aws"; region?: string };

export interface ProviderListing {
  name: string;
  label: string;
  wireFormat: WireFormat;
  key: KeyStatus;
  /** Where requests go; absent when the preset needs `--base-url` or the SDK derives it (Bedrock). */
  baseUrl?: string;
  defaultModel?: string;
}

/** A selected model as shown: its config without the key, and what the catalogue knows of it. */
export interface SelectedModel {
  mode: "act" | "plan";
  provider: string;
  wireFormat: WireFormat;
  model: string;
  baseUrl?: string;
  info: ModelInfo;
  known: boolean;
}

export interface ModelsReport {
  providers: ProviderListing[];
  /** The selected models, or why none is. */
  selected: SelectedModel[] | { problem: string };
  checks?: ProbeResult[];
}

export interface ModelsIo {
  env: Env;
  /** Bowline's home; default `$BOWLINE_HOME` or `~/.bowline`. */
  home?: string;
  out(text: string): void;
  err(text: string): void;
  /** How long a probe waits for an answer (default 3 s). */
  probeTimeoutMs?: number;
}

const processIo: ModelsIo = {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** Runs `bowline models`: 0 on success, 2 when a settings file is invalid. */
export async function runModelsCommand(args: CliArgs, io: ModelsIo = processIo): Promise<number> {
  let loaded: LoadedSettings;
  try {
    loaded = loadSettings(io.home ?? bowlineHome(io.env), args.cwd);
  } catch (error) {
    io.err(`bowline: ${(error as Error).message}`);
    return 2;
  }
  for (const warning of loaded.warnings) io.err(`bowline: warning: ${warning}`);
  const report = await modelsReport(args, loaded, io);
  io.out(args.outputFormat === "text" ? formatModelsReport(report) : JSON.stringify(report));
  return 0;
}

/** The listing, the selected models and, with `--check`, whether each configured provider answers. */
export async function modelsReport(
  args: CliArgs,
  loaded: LoadedSettings,
  io: ModelsIo,
): Promise<ModelsReport> {
  const flags = { provider: args.provider, model: args.model, baseUrl: args.baseUrl };
  const selection = selectModels(loaded.settings, flags, io.env);
  const configs = selection.ok
    ? [selection.models.act, ...(selection.models.plan ? [selection.models.plan] : [])]
    : [];
  const defaults = settingsDefaults(loaded.settings);
  const providers = Object.entries(PRESETS).map(([name, preset]) =>
    listPreset(
      name,
      preset,
      configs.find((config) => config.provider === name),
      io.env,
      defaults,
    ),
  );
  const selected = selection.ok
    ? configs.map((config, i) => describeSelected(i === 0 ? "act" : "plan", config))
    : { problem: selection.message.split("\n")[0] ?? selection.message };
  const report: ModelsReport = { providers: providers.map((p) => p.listing), selected };
  if (!args.check) return report;
  const targets = providers.flatMap((p) => (p.target ? [p.target] : []));
  // A server that is no preset (any name with --base-url) is probed too.
  for (const { provider: name, wireFormat, baseUrl, apiKey } of configs) {
    if (!Object.hasOwn(PRESETS, name) && !targets.some((t) => t.name === name)) {
      targets.push({ name, wireFormat, apiKey, ...(baseUrl ? { baseUrl } : {}) });
    }
  }
  const timeoutMs = io.probeTimeoutMs ?? 3000;
  report.checks = await Promise.all(targets.map((target) => probeProvider(target, timeoutMs)));
  return report;
}

/**
 * One preset as things stand: for a selected provider its resolved config decides the address
 * and key; for the others, their environment variables and the settings.
 */
function listPreset(
  name: string,
  preset: ProviderPreset,
  active: ModelConfig | undefined,
  env: Env,
  defaults: ModelDefaults,
): { listing: ProviderListing; target?: ProbeTarget } {
  const found = findApiKey(name, preset, {}, env, defaults);
  const baseUrl =
    active?.baseUrl ??
    firstEnv(env, preset.baseUrlVar ? [preset.baseUrlVar] : []) ??
    (defaults.provider?.toLowerCase() === name ? defaults.baseUrl : undefined) ??
    preset.baseUrl;
  const listing: ProviderListing = {
    name,
    label: preset.label,
    wireFormat: preset.wireFormat,
    key: keyStatus(preset, found?.from, active, active?.region ?? firstEnv(env, preset.regionVars)),
    ...(baseUrl ? { baseUrl } : {}),
    ...(preset.defaultModel ? { defaultModel: preset.defaultModel } : {}),
  };
  const target = probeTarget(name, preset, listing, found?.key ?? active?.apiKey);
  return { listing, ...(target ? { target } : {}) };
}

function firstEnv(env: Env, names: readonly string[] | undefined): string | undefined {
  return (names ?? []).map((name) => env[name]?.trim()).find(Boolean);
}

function keyStatus(
  preset: ProviderPreset,
  from: string | undefined,
  active: ModelConfig | undefined,
  region: string | undefined,
): KeyStatus {
  if (preset.auth === "aws") return region ? { state: "aws", region } : { state: "aws" };
  if (from) return { state: "found", from };
  // No key, and none needed: a local server, or a preset moved to a server of yours.
  if (preset.auth === "none" || active?.apiKey === NO_KEY_NEEDED) return { state: "not-needed" };
  return { state: "missing", vars: preset.keyVars ?? [] };
}

/** A configured provider with an address is probed; one without a key or address is not. */
function probeTarget(
  name: string,
  preset: ProviderPreset,
  listing: ProviderListing,
  key: string | undefined,
): ProbeTarget | undefined {
  if (listing.key.state === "missing") return undefined;
  if (!listing.baseUrl && preset.wireFormat !== "bedrock-converse") return undefined;
  return {
    name,
    wireFormat: preset.wireFormat,
    apiKey: key ?? NO_KEY_NEEDED,
    ...(listing.baseUrl ? { baseUrl: listing.baseUrl } : {}),
    ...(preset.headers ? { headers: preset.headers } : {}),
    ...(preset.listModels ? { listModels: preset.listModels } : {}),
  };
}

function describeSelected(mode: "act" | "plan", config: ModelConfig): SelectedModel {
  const { info, known } = lookupModel(config.provider, config.model);
  return {
    mode,
    provider: config.provider,
    wireFormat: config.wireFormat,
    model: config.model,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    info,
    known,
  };
}

function keyText(key: KeyStatus): string {
  switch (key.state) {
    case "found":
      return `key set (${key.from})`;
    case "missing":
      return `missing: ${key.vars.join(" or ")}`;
    case "not-needed":
      return "no key needed";
    case "aws":
      return key.region ? `AWS credential chain, ${key.region}` : "AWS credential chain";
  }
}

const number = (n: number) => n.toLocaleString("en-US");
const dollars = (n: number) => `$${n}`;

/** One line of what the catalogue knows of a model, and one of its prices. */
function infoLines(model: SelectedModel): string[] {
  const { info } = model;
  const abilities = [
    info.supportsImages ? "images" : "no images",
    info.supportsReasoning ? "reasoning" : undefined,
  ];
  const size = `${number(info.contextWindow)}-token context, ${number(info.maxOutputTokens)}-token replies`;
  const first = `${model.known ? "" : "unknown model, safe defaults: "}${[size, ...abilities].filter(Boolean).join(", ")}`;
  const p = info.prices;
  if (!p) return [first, "prices unknown"];
  const cache = [
    p.cacheRead !== undefined ? `cache read ${dollars(p.cacheRead)}` : undefined,
    p.cacheWrite !== undefined ? `cache write ${dollars(p.cacheWrite)}` : undefined,
  ].filter(Boolean);
  return [
    first,
    `${dollars(p.input)} input, ${dollars(p.output)} output per million tokens${cache.length ? ` (${cache.join(", ")})` : ""}`,
  ];
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => `  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")}`.trimEnd());
}

/** The report as text for a terminal. */
export function formatModelsReport(report: ModelsReport): string {
  const lines = ["Providers:"];
  lines.push(
    ...table([
      ["NAME", "WIRE FORMAT", "KEY", "BASE URL", "DEFAULT MODEL"],
      ...report.providers.map((p) => [
        p.name,
        p.wireFormat,
        keyText(p.key),
        p.baseUrl ?? (p.wireFormat === "bedrock-converse" ? "(from the region)" : "(needs --base-url)"),
        p.defaultModel ?? "(needs --model)",
      ]),
    ]),
  );
  lines.push("");
  if ("problem" in report.selected) {
    lines.push(
      `Selected model: none. ${report.selected.problem}`,
      "Run bowline --help to see how to choose one.",
    );
  } else {
    for (const model of report.selected) {
      const label = model.mode === "act" ? "Selected model" : "Plan-mode model";
      lines.push(`${label}: ${model.model} on ${model.provider} (${model.wireFormat})`);
      lines.push(...infoLines(model).map((line) => `  ${line}`));
    }
  }
  if (report.checks) {
    lines.push("", "Reachability:");
    lines.push(...table(report.checks.map((check) => [check.name, check.detail])));
    for (const check of report.checks) {
      if (check.models?.length) lines.push(`  ${check.name} models: ${check.models.join(", ")}`);
    }
  }
  return lines.join("\n");
}

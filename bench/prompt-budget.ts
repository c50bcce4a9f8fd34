import { pathToFileURL } from "node:url";
import { anthropicConverter } from "../src/agent/tool-set/converters/anthropic.js";
import { openAiChatConverter } from "../src/agent/tool-set/converters/openai-chat.js";
import { xmlConverter } from "../src/agent/tool-set/converters/xml.js";
import { createToolSetRegistry, type ToolSetRegistry } from "../src/agent/tool-set/registry.js";
import type { ToolContextInfo } from "../src/agent/tool-spec.js";
import { buildSystemPrompt } from "../src/coding/prompts/system-prompt.js";
import { registerBuiltinSpecs } from "../src/coding/tool-specs/register-builtin-specs.js";
import { selectVariant } from "../src/coding/tool-specs/select-variant.js";
import { type CodingPromptVariant, VARIANTS } from "../src/coding/tool-specs/variants.js";
import { createCodingTools } from "../src/coding/tools/index.js";
import { createWorkspace } from "../src/coding/workspace.js";
import { median, ROOT, round } from "./support.js";

/**
 * Tokens (o200k) of what a turn sends before any history: the system prompt plus the tool
 * schemas as serialised on the wire, for the default variant (native tools) and the compact
 * one (XML section inside the prompt); and the time the registry takes to hand a provider its
 * tools on a cached turn and on a turn whose context changed.
 */
export const promptBudgetTargets = { defaultTokens: 3000, compactTokens: 1000, registryMedianUs: 1000 };

export interface PromptBudgetResult {
  default: {
    variant: string;
    tools: string[];
    systemPromptTokens: number;
    anthropicToolsTokens: number;
    openAiChatToolsTokens: number;
    /** System prompt + the larger of the two tool serialisations. */
    totalTokens: number;
  };
  compact: { variant: string; tools: string[]; systemPromptTokens: number; totalTokens: number };
  /** For comparison: the full XML variant (system prompt with its tools section). */
  genericXmlTokens: number;
  registry: {
    iterations: number;
    /** First conversion in the process, zod -> JSON Schema included. */
    firstBuildUs: number;
    cachedTurnMedianUs: number;
    coldTurnMedianUs: number;
  };
  targets: typeof promptBudgetTargets;
  met: { defaultTokens: boolean; compactTokens: boolean; cachedTurn: boolean; coldTurn: boolean };
}

export async function benchPromptBudget(iterations = 2000): Promise<PromptBudgetResult> {
  const workspace = createWorkspace(ROOT);
  const shell = "/bin/bash";
  const ctx: ToolContextInfo = {
    cwd: workspace.root,
    os: "linux 6.1.0",
    shell,
    mode: "act",
    supportsImages: true,
    browserAvailable: false,
    yolo: false,
    isSubagent: false,
    skills: [],
  };
  const registry = createToolSetRegistry();
  registerBuiltinSpecs(registry, createCodingTools({ workspace }));
  const date = new Date("2026-01-01T00:00:00Z");
  const prompt = (variant: CodingPromptVariant, toolSection?: string) =>
    buildSystemPrompt({
      workspaceRoot: workspace.root,
      shell,
      date,
      os: ctx.os,
      flavour: variant.prompt,
      toolNames: registry.enabledSpecs(variant, ctx).map((spec) => spec.name),
      ...(toolSection ? { toolSection } : {}),
    });

  const started = process.hrtime.bigint();
  const defaultVariant = selectVariant({
    wireFormat: "anthropic-messages",
    model: "claude-sonnet-4-5",
    isRegistered: registry.has,
  });
  const anthropicTools = registry.convertedTools(defaultVariant, ctx, anthropicConverter);
  const firstBuildUs = Number(process.hrtime.bigint() - started) / 1000;
  const openAiTools = registry.convertedTools(defaultVariant, ctx, openAiChatConverter);
  // Timed before the tokenizer loads: its 30 MB of tables would slow the collector for the rest.
  const timing = timeRegistry(registry, defaultVariant, ctx, iterations);
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  const defaultPrompt = countTokens(prompt(defaultVariant));
  const anthropicTokens = countTokens(JSON.stringify(anthropicTools));
  const openAiTokens = countTokens(JSON.stringify(openAiTools));

  const compact = selectVariant({ wireFormat: "openai-chat", model: "qwen2.5-coder:7b", compact: true });
  const compactPrompt = countTokens(prompt(compact, registry.convertedTools(compact, ctx, xmlConverter)));
  const genericXml = countTokens(
    prompt(VARIANTS.generic, registry.convertedTools(VARIANTS.generic, ctx, xmlConverter)),
  );

  const names = (variant: CodingPromptVariant) => registry.enabledSpecs(variant, ctx).map((s) => s.name);
  const totalDefault = defaultPrompt + Math.max(anthropicTokens, openAiTokens);
  return {
    default: {
      variant: defaultVariant.id,
      tools: names(defaultVariant),
      systemPromptTokens: defaultPrompt,
      anthropicToolsTokens: anthropicTokens,
      openAiChatToolsTokens: openAiTokens,
      totalTokens: totalDefault,
    },
    compact: {
      variant: compact.id,
      tools: names(compact),
      systemPromptTokens: compactPrompt,
      totalTokens: compactPrompt,
    },
    genericXmlTokens: genericXml,
    registry: { iterations, firstBuildUs: round(firstBuildUs, 1), ...timing },
    targets: promptBudgetTargets,
    met: {
      defaultTokens: totalDefault < promptBudgetTargets.defaultTokens,
      compactTokens: compactPrompt < promptBudgetTargets.compactTokens,
      cachedTurn: timing.cachedTurnMedianUs < promptBudgetTargets.registryMedianUs,
      coldTurn: timing.coldTurnMedianUs < promptBudgetTargets.registryMedianUs,
    },
  };
}

/** Median microseconds of enabledSpecs + conversion, with ctx unchanged and with ctx changed every turn. */
export function timeRegistry(
  registry: ToolSetRegistry,
  variant: CodingPromptVariant,
  ctx: ToolContextInfo,
  iterations: number,
): { cachedTurnMedianUs: number; coldTurnMedianUs: number } {
  const turn = (turnCtx: ToolContextInfo) => {
    const started = process.hrtime.bigint();
    registry.enabledSpecs(variant, turnCtx);
    registry.convertedTools(variant, turnCtx, anthropicConverter);
    return Number(process.hrtime.bigint() - started) / 1000;
  };
  for (let i = 0; i < 1000; i++) {
    // Let the JIT settle on both paths first.
    turn({ ...ctx });
    turn({ ...ctx, cwd: `${ctx.cwd}/warm-${i}` });
  }
  const cached: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < iterations; i++) cached.push(turn({ ...ctx }));
  for (let i = 0; i < iterations; i++) cold.push(turn({ ...ctx, cwd: `${ctx.cwd}/${i}` }));
  return { cachedTurnMedianUs: round(median(cached), 2), coldTurnMedianUs: round(median(cold), 2) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchPromptBudget(), null, 2)}\n`);
}

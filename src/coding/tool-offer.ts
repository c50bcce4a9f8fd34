import { platform, release } from "node:os";
import { TASK_PROGRESS_DESCRIPTION, TASK_PROGRESS_PARAM } from "../agent/focus-chain.js";
import type { ToolOffer } from "../agent/task.js";
import type { ToolHandler } from "../agent/tool.js";
import {
  createDynamicSpecSet,
  createToolSetRegistry,
  llmToolConverter,
  specJsonSchema,
  subagentToolSpecs,
  xmlConverter,
} from "../agent/tool-set/index.js";
import type { ToolContextInfo } from "../agent/tool-spec.js";
import type { LlmToolDefinition, WireFormat } from "../llm/types.js";
import type { AgentConfig } from "./instructions/agents.js";
import type { McpHub } from "./mcp/hub.js";
import { withServerInstructions } from "./mcp/instructions.js";
import { createMcpOffer } from "./mcp/mcp-offer.js";
import { buildSystemPrompt } from "./prompts/system-prompt.js";
import { registerBuiltinSpecs } from "./tool-specs/register-builtin-specs.js";
import { selectVariant } from "./tool-specs/select-variant.js";
import type { CodingPromptVariant } from "./tool-specs/variants.js";
import { createConfiguredSubagentTool } from "./tools/use-configured-subagent.js";
import type { SubagentRun } from "./tools/use-subagents.js";

export interface ToolOfferOptions {
  tools: readonly ToolHandler[];
  wireFormat: WireFormat;
  model: string;
  /** The prompt variant the model catalogue names for the model, if any. */
  preferredVariant?: string;
  workspaceRoot: string;
  shell: string;
  mode: "plan" | "act";
  /** The person can switch modes during the task (interactive hosts). */
  modeCanChange?: boolean;
  /** Forces the protocol; default: the variant's. */
  toolProtocol?: "native" | "xml";
  compact?: boolean;
  yolo?: boolean;
  /**
   * MCP servers: their tools are offered as they connect (one native tool each, or through
   * use_mcp_tool with a catalogue; schemas on demand when they would crowd the context).
   */
  mcpHub?: McpHub;
  /** The model's context window in tokens (decides lazy MCP schemas); default 128k. */
  contextWindow?: number;
  /** Names of the skills found (use_skill is offered only when there are some). */
  skills?: readonly string[];
  /** Extra system prompt sections (rules, skills), appended in order. */
  promptSections?: readonly string[];
  /** A subagent run: no nested subagents. */
  isSubagent?: boolean;
  /** Every tool takes an optional `task_progress` checklist (the focus chain). */
  focusChain?: boolean;
  browserAvailable?: boolean;
  supportsImages?: boolean;
  /** Configured subagents, each offered as `use_subagent_<name>` (they replace `use_subagents`). */
  agents?: readonly AgentConfig[];
  runSubagent?: (prompt: string, signal: AbortSignal) => Promise<SubagentRun>;
}

const DEFAULT_CONTEXT_WINDOW = 128_000;

export interface PreparedToolOffer {
  variant: CodingPromptVariant;
  /** The handlers of the tools offered (the coordinator routes only these). */
  tools: ToolHandler[];
  offer: ToolOffer;
  /**
   * The system prompt as it is now. With MCP tools on offer it ends with the connected servers'
   * instructions, so it changes when a server connects: read it for each request.
   */
  readonly systemPrompt: string;
  /** For the person: MCP tools that could not be offered, and why. */
  warnings: string[];
}

/**
 * Chooses the prompt variant for the model, resolves its tools through the spec registry, and
 * prepares what the loop offers: native definitions, or the XML section of the system prompt
 * with what the XML parser needs.
 */
export function prepareToolOffer(options: ToolOfferOptions): PreparedToolOffer {
  const registry = createToolSetRegistry();
  const dynamic = createDynamicSpecSet();
  const handlers = [...options.tools];
  const warnings: string[] = [];
  registerBuiltinSpecs(registry, handlers);
  const variant = selectVariant({
    wireFormat: options.wireFormat,
    model: options.model,
    preferred: options.preferredVariant,
    toolProtocol: options.toolProtocol,
    compact: options.compact,
    isRegistered: (id) => registry.has(id),
  });
  const ctx: ToolContextInfo = {
    cwd: options.workspaceRoot,
    os: `${platform()} ${release()}`,
    shell: options.shell,
    mode: options.mode,
    modeCanChange: options.modeCanChange ?? false,
    supportsImages: options.supportsImages ?? false,
    browserAvailable: options.browserAvailable ?? false,
    yolo: options.yolo ?? false,
    isSubagent: options.isSubagent ?? false,
    skills: options.skills ?? [],
  };
  // MCP specs are all dynamic (they follow the servers); variants without use_mcp_tool get none.
  const mcp =
    options.mcpHub && variant.tools.includes("use_mcp_tool")
      ? createMcpOffer({
          hub: options.mcpHub,
          contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
          supportsImages: options.supportsImages ?? false,
        })
      : undefined;
  const mcpProtocol = variant.nativeTools ? "native" : "xml";
  if (mcp) {
    dynamic.set("mcp", mcp.specs(mcpProtocol));
    warnings.push(...mcp.warnings());
  }
  if (options.agents?.length && options.runSubagent) {
    const agentSpecs = subagentToolSpecs(options.agents, ctx);
    dynamic.set("subagents", agentSpecs);
    for (const spec of agentSpecs) {
      const agent = options.agents.find((candidate) => candidate.name === spec.subagent)!;
      handlers.push(createConfiguredSubagentTool({ toolName: spec.name, agent, run: options.runSubagent }));
    }
  }
  const specs = registry.enabledSpecs(variant, ctx, dynamic.current());
  const offered = new Set(specs.flatMap((spec) => [spec.id, spec.name]));
  const tools = [...handlers.filter((tool) => offered.has(tool.name)), ...(mcp?.handlers ?? [])];
  const xml = !variant.nativeTools;
  const offer: ToolOffer = xml
    ? {
        protocol: "xml",
        tools: new Map(
          specs.map((spec) => [
            spec.name,
            [
              ...Object.keys(propertiesOf(specJsonSchema(spec))),
              ...(options.focusChain ? [TASK_PROGRESS_PARAM] : []),
            ],
          ]),
        ),
        jsonSchemaOf: (name) => {
          const spec = specs.find((candidate) => candidate.name === name);
          return spec ? specJsonSchema(spec) : undefined;
        },
      }
    : {
        protocol: "native",
        definitions: () => {
          if (mcp) dynamic.set("mcp", mcp.specs(mcpProtocol));
          const converted = registry.convertedTools(variant, ctx, llmToolConverter, dynamic.current());
          return options.focusChain ? withTaskProgress(converted) : converted;
        },
      };
  const systemPrompt = buildSystemPrompt({
    workspaceRoot: options.workspaceRoot,
    shell: options.shell,
    flavour: variant.prompt,
    toolSection: xml ? registry.convertedTools(variant, ctx, xmlConverter, dynamic.current()) : undefined,
    toolNames: specs.map((spec) => spec.name),
  });
  const sections = [
    ...(options.focusChain && xml
      ? [
          `Every tool also accepts an optional <${TASK_PROGRESS_PARAM}> parameter: ${TASK_PROGRESS_DESCRIPTION}`,
        ]
      : []),
    ...(options.promptSections ?? []),
  ].filter(Boolean);
  const base = [systemPrompt, ...sections].join("\n\n");
  const current = mcp && options.mcpHub ? withServerInstructions(base, options.mcpHub) : () => base;
  return {
    variant,
    tools,
    offer,
    get systemPrompt() {
      return current();
    },
    warnings,
  };
}

/** The definitions with the optional `task_progress` parameter added to every tool (cached per array). */
const withProgress = new WeakMap<readonly LlmToolDefinition[], LlmToolDefinition[]>();
function withTaskProgress(definitions: readonly LlmToolDefinition[]): LlmToolDefinition[] {
  let result = withProgress.get(definitions);
  if (!result) {
    result = definitions.map((definition) => ({
      ...definition,
      inputSchema: {
        ...definition.inputSchema,
        properties: {
          ...propertiesOf(definition.inputSchema),
          [TASK_PROGRESS_PARAM]: { type: "string", description: TASK_PROGRESS_DESCRIPTION },
        },
      },
    }));
    withProgress.set(definitions, result);
  }
  return result;
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  return properties && typeof properties === "object" ? (properties as Record<string, unknown>) : {};
}

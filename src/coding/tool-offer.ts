import { platform, release } from "node:os";
import type { ToolOffer } from "../agent/task.js";
import type { ToolHandler } from "../agent/tool.js";
import {
  createToolSetRegistry,
  llmToolConverter,
  specJsonSchema,
  xmlConverter,
} from "../agent/tool-set/index.js";
import type { ToolContextInfo } from "../agent/tool-spec.js";
import type { WireFormat } from "../llm/types.js";
import { buildSystemPrompt } from "./prompts/system-prompt.js";
import { registerBuiltinSpecs } from "./tool-specs/register-builtin-specs.js";
import { selectVariant } from "./tool-specs/select-variant.js";
import type { CodingPromptVariant } from "./tool-specs/variants.js";

export interface ToolOfferOptions {
  tools: readonly ToolHandler[];
  wireFormat: WireFormat;
  model: string;
  workspaceRoot: string;
  shell: string;
  mode: "plan" | "act";
  /** Forces the protocol; default: the variant's. */
  toolProtocol?: "native" | "xml";
  compact?: boolean;
  yolo?: boolean;
}

export interface PreparedToolOffer {
  variant: CodingPromptVariant;
  /** The handlers of the tools offered (the coordinator routes only these). */
  tools: ToolHandler[];
  offer: ToolOffer;
  systemPrompt: string;
}

/**
 * Chooses the prompt variant for the model, resolves its tools through the spec registry, and
 * prepares what the loop offers: native definitions, or the XML section of the system prompt
 * with what the XML parser needs.
 */
export function prepareToolOffer(options: ToolOfferOptions): PreparedToolOffer {
  const registry = createToolSetRegistry();
  registerBuiltinSpecs(registry, options.tools);
  const variant = selectVariant({
    wireFormat: options.wireFormat,
    model: options.model,
    toolProtocol: options.toolProtocol,
    compact: options.compact,
    isRegistered: (id) => registry.has(id),
  });
  const ctx: ToolContextInfo = {
    cwd: options.workspaceRoot,
    os: `${platform()} ${release()}`,
    shell: options.shell,
    mode: options.mode,
    supportsImages: false,
    browserAvailable: false,
    yolo: options.yolo ?? false,
    isSubagent: false,
    skills: [],
  };
  const specs = registry.enabledSpecs(variant, ctx);
  const offeredIds = new Set(specs.map((spec) => spec.id));
  const tools = options.tools.filter((tool) => offeredIds.has(tool.name));
  const xml = !variant.nativeTools;
  const offer: ToolOffer = xml
    ? {
        protocol: "xml",
        tools: new Map(specs.map((spec) => [spec.name, Object.keys(propertiesOf(specJsonSchema(spec)))])),
        jsonSchemaOf: (name) => {
          const spec = specs.find((candidate) => candidate.name === name);
          return spec ? specJsonSchema(spec) : undefined;
        },
      }
    : { protocol: "native", definitions: () => registry.convertedTools(variant, ctx, llmToolConverter) };
  const systemPrompt = buildSystemPrompt({
    workspaceRoot: options.workspaceRoot,
    shell: options.shell,
    flavour: variant.prompt,
    toolSection: xml ? registry.convertedTools(variant, ctx, xmlConverter) : undefined,
    toolNames: specs.map((spec) => spec.name),
  });
  return { variant, tools, offer, systemPrompt };
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  return properties && typeof properties === "object" ? (properties as Record<string, unknown>) : {};
}

import type { WireFormat } from "../../llm/types.js";
import { type CodingPromptVariant, VARIANTS, type VariantId } from "./variants.js";

export interface VariantSelection {
  wireFormat: WireFormat;
  /** The model id as configured, e.g. `claude-sonnet-4-5` or `openai/gpt-5-mini`. */
  model: string;
  /** `xml` forces the XML text protocol; default: native where the wire format carries tool calls. */
  toolProtocol?: "native" | "xml";
  /** The short prompt and tool set for small local models (always the XML protocol). */
  compact?: boolean;
  /** The variant the model catalogue names for this model; it wins over the family rules when it fits. */
  preferred?: string;
  /** Whether a tool id has a spec; a variant whose `requires` are missing is passed over. Default: all have. */
  isRegistered?: (toolId: string) => boolean;
}

/** Whether each wire format carries native tool calls. */
const NATIVE_TOOL_CALLS: Readonly<Record<WireFormat, boolean>> = {
  "anthropic-messages": true,
  "openai-chat": true,
  "openai-responses": true,
  gemini: true,
  "bedrock-converse": true,
};

/**
 * Model families, matched against the lower-cased model id (after any `vendor/` prefix); the
 * first match wins. Per protocol, candidate variants in order of preference.
 */
export interface ModelRule {
  family: string;
  match: RegExp;
  native: readonly VariantId[];
  xml: readonly VariantId[];
}

export const MODEL_RULES: readonly ModelRule[] = [
  {
    family: "gpt-5",
    match: /^(gpt-5(\.\d+)?(-(?!chat)[\w.-]+)?|gpt-oss([\w.:-]*))$/,
    native: ["gpt", "native"],
    xml: ["next-gen"],
  },
  {
    family: "next-gen",
    match: /^(claude-(opus|sonnet|haiku)-[4-9]|gemini-(2\.5|[3-9])|grok-[4-9])/,
    native: ["native"],
    xml: ["next-gen"],
  },
  { family: "generic", match: /^/, native: ["native"], xml: ["generic"] },
];

/**
 * The prompt variant for a model: `compact` when asked; otherwise the model family's first
 * candidate for the protocol whose required tools are registered (GPT-5 models get `gpt` with
 * `apply_patch` once it exists, `native` until then).
 */
export function selectVariant(selection: VariantSelection): CodingPromptVariant {
  if (selection.compact) return VARIANTS.compact;
  const wanted = selection.toolProtocol ?? "native";
  const protocol = wanted === "native" && NATIVE_TOOL_CALLS[selection.wireFormat] ? "native" : "xml";
  const id = selection.model.toLowerCase().split("/").pop() ?? "";
  const rule = MODEL_RULES.find((r) => r.match.test(id)) ?? MODEL_RULES[MODEL_RULES.length - 1]!;
  const isRegistered = selection.isRegistered ?? (() => true);
  const preferred = VARIANTS[selection.preferred as VariantId] as CodingPromptVariant | undefined;
  // The catalogue's choice, when it speaks the protocol in use (compact means small local models).
  if (preferred?.id === "compact" && selection.toolProtocol !== "native") return preferred;
  const fits = preferred !== undefined && preferred.nativeTools === (protocol === "native");
  const candidates = [
    ...(fits ? [preferred] : []),
    ...rule[protocol].map((variantId) => VARIANTS[variantId]),
  ];
  const usable = candidates.find((variant) => (variant.requires ?? []).every(isRegistered));
  return usable ?? (protocol === "native" ? VARIANTS.native : VARIANTS.generic);
}

import type { ToolContextInfo, ToolSpec } from "../tool-spec.js";
import { fillTemplate } from "./json-schema.js";

/**
 * Turns the resolved specs of one turn into what a provider (or the XML prompt section) needs.
 * `id` names the output in the registry's cache. Contract: `convert` throws
 * `ToolSpecContextError` when given a spec whose `contextRequirements(ctx)` fails; it throws
 * nothing else.
 */
export interface ToolSetConverter<T> {
  readonly id: string;
  convert(specs: readonly ToolSpec[], ctx: ToolContextInfo): T;
}

/**
 * A converter was asked to offer a tool the context rules out (e.g. `ask_followup_question`
 * in YOLO mode). A programming error in the caller: the enabled set never contains such a spec.
 */
export class ToolSpecContextError extends Error {
  readonly code = "tool_spec_context_unmet";
  constructor(readonly toolName: string) {
    super(`Tool ${toolName} does not meet the context requirements of this run and cannot be offered.`);
    this.name = "ToolSpecContextError";
  }
}

/** Throws `ToolSpecContextError` unless the spec may be offered in `ctx`. */
export function assertOffered(spec: ToolSpec, ctx: ToolContextInfo): void {
  if (spec.contextRequirements && !spec.contextRequirements(ctx)) throw new ToolSpecContextError(spec.name);
}

/** The spec's description with its templates filled, after checking it may be offered. */
export function offeredDescription(spec: ToolSpec, ctx: ToolContextInfo): string {
  assertOffered(spec, ctx);
  return fillTemplate(spec.description, ctx);
}

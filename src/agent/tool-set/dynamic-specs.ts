import * as z from "zod/mini";
import type { ToolContextInfo, ToolSpec } from "../tool-spec.js";
import { isJsonSchemaInput } from "./json-schema.js";
import type { DynamicToolSpecs } from "./registry.js";

/** Providers reject longer tool names (OpenAI, Anthropic and Gemini all cap at 64). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** What the tool set needs to know of connected MCP servers (the MCP hub implements it). */
export interface McpToolSource {
  listServers(): Array<{
    name: string;
    disabled?: boolean;
    tools: Array<{ name: string; description?: string; inputSchema: Record<string, unknown> }>;
  }>;
}

/** A native tool for one MCP tool; `mcp` routes a call back to the server and original tool name. */
export interface McpToolSpec extends ToolSpec {
  mcp: { server: string; tool: string };
}

export interface McpToolSpecs {
  specs: McpToolSpec[];
  /** One line per tool that could not be offered, for the user (not the model). */
  warnings: string[];
}

const MCP_SEPARATOR = "__mcp__";

/**
 * One spec per tool of each enabled server, id `use_mcp_tool`, named `<server>__mcp__<tool>`
 * with characters outside `[A-Za-z0-9_-]` replaced by `_` (and a leading `_` when the name
 * would not start with a letter or `_`, as Gemini requires). Tools whose name is still too
 * long, that collide with an earlier name, or whose schema is not an object are skipped with a
 * warning. Disabled servers contribute nothing.
 */
export function mcpToolSpecs(source: McpToolSource): McpToolSpecs {
  const specs: McpToolSpec[] = [];
  const warnings: string[] = [];
  const taken = new Set<string>();
  for (const server of source.listServers()) {
    if (server.disabled) continue;
    for (const tool of server.tools) {
      const name = sanitizeToolName(`${server.name}${MCP_SEPARATOR}${tool.name}`);
      const label = `MCP tool "${tool.name}" of server "${server.name}" is not offered to the model`;
      if (name.length > MAX_TOOL_NAME_LENGTH) {
        warnings.push(`${label}: its name ${name} is longer than ${MAX_TOOL_NAME_LENGTH} characters.`);
      } else if (taken.has(name)) {
        warnings.push(`${label}: its name ${name} is the same as another tool's.`);
      } else if (tool.inputSchema.type !== undefined && tool.inputSchema.type !== "object") {
        warnings.push(`${label}: its input schema is not an object schema.`);
      } else {
        taken.add(name);
        specs.push({
          id: "use_mcp_tool",
          family: "generic",
          name,
          description: `${server.name}: ${tool.description?.trim() || tool.name}`,
          inputSchema: { jsonSchema: tool.inputSchema },
          mcp: { server: server.name, tool: tool.name },
        });
      }
    }
  }
  return { specs, warnings };
}

/** `name` in the charset every provider accepts, starting with a letter or `_`. */
export function sanitizeToolName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_");
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

/** A tool that delegates to one configured subagent. */
export interface SubagentToolSpec extends ToolSpec {
  subagent: string;
}

const subagentInput = z.object({
  prompt: z
    .string()
    .check(
      z.minLength(1),
      z.describe("The task for the subagent, with the context it needs: it does not see this conversation."),
    ),
});

const SUBAGENT_PREFIX = "use_subagent_";

/**
 * One `use_subagent_<name>` spec (id `use_subagents`) per configured subagent; none inside a
 * subagent run, so subagents never nest. Names are sanitised; one too long is cut and given a
 * hash of the full name so distinct agents keep distinct names. Later duplicates are dropped.
 */
export function subagentToolSpecs(
  subagents: ReadonlyArray<{ name: string; description: string }>,
  ctx: ToolContextInfo,
): SubagentToolSpec[] {
  if (ctx.isSubagent) return [];
  const specs: SubagentToolSpec[] = [];
  const taken = new Set<string>();
  for (const agent of subagents) {
    const name = fitName(`${SUBAGENT_PREFIX}${agent.name.replace(/[^A-Za-z0-9_-]/g, "_")}`);
    if (taken.has(name)) continue;
    taken.add(name);
    specs.push({
      id: "use_subagents",
      family: "generic",
      name,
      description:
        `Delegate a task to the "${agent.name}" subagent, which works on its own and returns its result. ${agent.description}`.trim(),
      inputSchema: subagentInput,
      subagent: agent.name,
    });
  }
  return specs;
}

function fitName(name: string): string {
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = fnv1a(name);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

/** 32-bit FNV-1a, as 8 hex digits. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/**
 * The run-time specs of a task, gathered from several sources (`"mcp"`, `"subagents"`), with a
 * version that changes exactly when their content does, so the registry's cache stays valid.
 */
export interface DynamicSpecSet {
  /** Replaces one source's specs; the version changes only if they differ from the previous ones. */
  set(source: string, specs: readonly ToolSpec[]): void;
  /** The same object until the next change. */
  current(): DynamicToolSpecs;
}

/** Versions are unique across every set in the process, so two tasks' sets never share one. */
let lastVersion = 0;

export function createDynamicSpecSet(): DynamicSpecSet {
  const sources = new Map<string, readonly ToolSpec[]>();
  let current: DynamicToolSpecs = { version: ++lastVersion, specs: Object.freeze([]) };
  return {
    set(source, specs) {
      if (sameSpecs(sources.get(source) ?? [], specs)) return;
      sources.set(source, [...specs]);
      current = { version: ++lastVersion, specs: Object.freeze([...sources.values()].flat()) };
    },
    current: () => current,
  };
}

function sameSpecs(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  return a.length === b.length && a.every((spec, i) => sameSpec(spec, b[i]!));
}

function sameSpec(a: ToolSpec, b: ToolSpec): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const x = (a as unknown as Record<string, unknown>)[key];
    const y = (b as unknown as Record<string, unknown>)[key];
    if (x === y) continue;
    if (key === "inputSchema") {
      if (!sameInput(a.inputSchema, b.inputSchema)) return false;
    } else if (
      typeof x === "function" ||
      typeof y === "function" ||
      JSON.stringify(x) !== JSON.stringify(y)
    ) {
      return false;
    }
  }
  return true;
}

function sameInput(a: ToolSpec["inputSchema"], b: ToolSpec["inputSchema"]): boolean {
  return (
    isJsonSchemaInput(a) &&
    isJsonSchemaInput(b) &&
    JSON.stringify(a.jsonSchema) === JSON.stringify(b.jsonSchema)
  );
}

import type { ModelFamily, PromptVariant, ToolContextInfo, ToolSpec } from "../tool-spec.js";
import type { ToolSetConverter } from "./converter.js";
import { stableKey } from "./stable-key.js";

/**
 * Specs that exist only at run time (MCP tools, configured subagents). `version` must change
 * whenever `specs` do: the registry's cache trusts it. `createDynamicSpecSet` keeps it so.
 */
export interface DynamicToolSpecs {
  readonly version: number;
  readonly specs: readonly ToolSpec[];
}

export interface ToolSetRegistry {
  /**
   * Adds a spec. A later spec with the same family and id REPLACES the earlier one (re-registering
   * from rebuilt handlers, e.g. after a settings change, must take effect, not be silently
   * ignored). Clears the cache.
   */
  register(spec: ToolSpec): void;
  /** The spec for `id`: the family's own, else `generic`'s, else the first family that registered it. */
  lookup(id: string, family: ModelFamily): ToolSpec | undefined;
  /** True when some family registered `id`. */
  has(id: string): boolean;
  /**
   * The tools offered this turn: the variant's ids resolved through `lookup`, in variant order,
   * without unknown ids and specs whose `contextRequirements(ctx)` fails; then the dynamic specs
   * that pass. A dynamic spec's id replaces the variant's static spec of that id (per-tool MCP
   * specs replace `use_mcp_tool`, per-agent subagent specs replace `use_subagents`); a later
   * spec whose name is already taken is left out. A variant without tools yields [].
   * Cached: the same frozen array is returned while the variant, ctx and dynamic version are unchanged.
   */
  enabledSpecs(variant: PromptVariant, ctx: ToolContextInfo, dynamic?: DynamicToolSpecs): readonly ToolSpec[];
  /** `converter` applied to `enabledSpecs(...)`, cached alongside it (same instance on a cache hit). */
  convertedTools<T>(
    variant: PromptVariant,
    ctx: ToolContextInfo,
    converter: ToolSetConverter<T>,
    dynamic?: DynamicToolSpecs,
  ): T;
}

export interface ToolSetRegistryOptions {
  /** Distinct (variant, ctx, dynamic version) results kept. Default 16. */
  cacheSize?: number;
}

interface CacheEntry {
  specs: readonly ToolSpec[];
  converted: Map<string, unknown>;
}

const NO_TOOLS: readonly ToolSpec[] = Object.freeze([]);

export function createToolSetRegistry(options: ToolSetRegistryOptions = {}): ToolSetRegistry {
  const cacheSize = options.cacheSize ?? 16;
  /** family -> id -> spec */
  const byFamily = new Map<ModelFamily, Map<string, ToolSpec>>();
  /** id -> families that registered it, in registration order */
  const familiesOf = new Map<string, ModelFamily[]>();
  const cache = new Map<string, CacheEntry>();

  function lookup(id: string, family: ModelFamily): ToolSpec | undefined {
    const own = byFamily.get(family)?.get(id) ?? byFamily.get("generic")?.get(id);
    if (own) return own;
    const first = familiesOf.get(id)?.[0];
    return first === undefined ? undefined : byFamily.get(first)?.get(id);
  }

  function resolve(variant: PromptVariant, ctx: ToolContextInfo, dynamic?: DynamicToolSpecs): ToolSpec[] {
    const offered = (spec: ToolSpec) => !spec.contextRequirements || spec.contextRequirements(ctx);
    const dynamicSpecs = (dynamic?.specs ?? []).filter(offered);
    const replaced = new Set(dynamic?.specs.map((spec) => spec.id));
    const names = new Set<string>();
    const specs: ToolSpec[] = [];
    const add = (spec: ToolSpec) => {
      if (names.has(spec.name)) return;
      names.add(spec.name);
      specs.push(spec);
    };
    for (const id of variant.tools) {
      if (replaced.has(id)) continue;
      const spec = lookup(id, variant.family);
      if (spec && offered(spec)) add(spec);
    }
    for (const spec of dynamicSpecs) add(spec);
    return specs;
  }

  function entry(variant: PromptVariant, ctx: ToolContextInfo, dynamic?: DynamicToolSpecs): CacheEntry {
    const key = `${variant.id}|${variant.family}|${variant.tools.join(",")}\0${stableKey(ctx)}\0${dynamic?.version ?? "-"}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key); // least recently used goes first
      cache.set(key, hit);
      return hit;
    }
    const specs = variant.tools.length === 0 ? NO_TOOLS : Object.freeze(resolve(variant, ctx, dynamic));
    const created = { specs, converted: new Map<string, unknown>() };
    cache.set(key, created);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
    return created;
  }

  return {
    register(spec) {
      const specs = byFamily.get(spec.family) ?? new Map<string, ToolSpec>();
      byFamily.set(spec.family, specs);
      specs.set(spec.id, spec);
      const families = familiesOf.get(spec.id) ?? [];
      if (!families.includes(spec.family)) familiesOf.set(spec.id, [...families, spec.family]);
      cache.clear();
    },
    lookup,
    has: (id) => familiesOf.has(id),
    enabledSpecs: (variant, ctx, dynamic) => entry(variant, ctx, dynamic).specs,
    convertedTools<T>(
      variant: PromptVariant,
      ctx: ToolContextInfo,
      converter: ToolSetConverter<T>,
      dynamic?: DynamicToolSpecs,
    ): T {
      const cached = entry(variant, ctx, dynamic);
      if (cached.converted.has(converter.id)) return cached.converted.get(converter.id) as T;
      const converted = converter.convert(cached.specs, ctx);
      cached.converted.set(converter.id, converted);
      return converted;
    },
  };
}

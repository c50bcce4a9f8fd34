import type { ToolContext, ToolHandler, ToolResult } from "../tool.js";
import type { ToolApprovalInfo } from "./tool-category.js";
import { isMcpToolName, MCP_TOOL_ID, SUBAGENTS_TOOL_ID, subagentNameOf } from "./tool-names.js";

/**
 * The context a routed call runs with: the name the model called, which differs from the
 * handler's own name for MCP tools (`github__mcp__create_issue` runs `use_mcp_tool`) and for shared
 * handlers (`replace_in_file` runs the write_to_file implementation).
 */
export interface RoutedToolContext extends ToolContext {
  readonly toolName: string;
}

/** The name the model called, when the call came through the coordinator or a shared handler. */
export function calledToolName(ctx: ToolContext): string | undefined {
  const name = (ctx as Partial<RoutedToolContext>).toolName;
  return typeof name === "string" ? name : undefined;
}

/** `ctx` with the called name added. */
export function routedContext(ctx: ToolContext, toolName: string): RoutedToolContext {
  return { ...ctx, toolName };
}

/** Builds a tool's handler from injected dependencies; undefined means "this id has no handler". */
export type HandlerFactory<Deps> = (deps: Deps) => ToolHandler | undefined;

/** What a shared handler may state differently from the implementation it delegates to. */
export type SharedHandlerOverrides = Partial<
  Pick<ToolHandler, "description" | "inputSchema" | "mutates" | "summarize"> &
    Pick<ToolApprovalInfo, "category">
>;

/**
 * A handler named `name` that runs `base`: one implementation serving several tool names (e.g.
 * write_to_file, replace_in_file and new_rule). `base.execute` gets `toolName: name` in its
 * context (see `calledToolName`) so it can branch on the name. Everything else is read from
 * `base` at each use unless overridden.
 */
export function shareHandler(
  name: string,
  base: ToolHandler,
  overrides: SharedHandlerOverrides = {},
): ToolHandler & ToolApprovalInfo {
  const info = base as ToolHandler & ToolApprovalInfo;
  return {
    name,
    get description() {
      return overrides.description ?? base.description;
    },
    get inputSchema() {
      return overrides.inputSchema ?? base.inputSchema;
    },
    get mutates() {
      return overrides.mutates ?? base.mutates;
    },
    get category() {
      return overrides.category ?? info.category;
    },
    approvalPaths: info.approvalPaths ? (input: unknown) => info.approvalPaths!(input) : undefined,
    summarize: (input: unknown) => (overrides.summarize ? overrides.summarize(input) : base.summarize(input)),
    execute: (input: unknown, ctx: ToolContext) => base.execute(input, routedContext(ctx, name)),
  };
}

export interface CoordinatorOptions {
  /**
   * True when `subagentName` (the `<name>` of a `use_subagent_<name>` call) is a configured
   * subagent. Asked at every lookup, so a subagent removed from the configuration stops routing.
   * Contract: must not throw.
   */
  isConfiguredSubagent?(subagentName: string): boolean;
}

export interface Coordinator<Deps = void> {
  /** Declares how tool `id` is built; replaces an earlier factory for the same id. */
  registerFactory(id: string, factory: HandlerFactory<Deps>): void;
  /**
   * Builds tool `id` from its factory with `deps` (one factory call) and registers the handler
   * under `id`, replacing an earlier one. Returns false, registering nothing, when the factory
   * returns undefined. Throws when there is no factory for `id`, or the handler's name is not `id`.
   */
  registerByName(id: string, deps: Deps): boolean;
  /** `registerByName` for every factory, in declaration order; returns the ids that got a handler. */
  registerAll(deps: Deps): string[];
  /** Registers `handler` under its own name, replacing an earlier one. */
  register(handler: ToolHandler): void;
  /**
   * The handler for a called name: names containing `__mcp__` resolve to `use_mcp_tool`; then the
   * registered handlers; then, for `use_subagent_<name>` of a configured subagent, a shared
   * wrapper around `use_subagents` (built once per name and cached).
   */
  getHandler(name: string): ToolHandler | undefined;
  has(name: string): boolean;
  /**
   * Runs the call on its handler, with `toolName: name` added to the context. Throws
   * `Error("No handler registered for tool: <name>")` when there is none; otherwise whatever the
   * handler does (it may throw).
   */
  execute(name: string, input: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** Registered names, in registration order, for an "unknown tool" message. */
  availableNames(): string[];
}

export function createCoordinator<Deps = void>(options: CoordinatorOptions = {}): Coordinator<Deps> {
  const factories = new Map<string, HandlerFactory<Deps>>();
  const handlers = new Map<string, ToolHandler>();
  const subagentHandlers = new Map<string, ToolHandler>();

  const set = (id: string, handler: ToolHandler | undefined) => {
    // Cached subagent wrappers delegate to the use_subagents handler they were built around.
    if (id === SUBAGENTS_TOOL_ID) subagentHandlers.clear();
    if (handler) handlers.set(id, handler);
    else handlers.delete(id);
  };

  function registerByName(id: string, deps: Deps): boolean {
    const factory = factories.get(id);
    if (!factory) throw new Error(`No handler factory for tool: ${id}`);
    const handler = factory(deps);
    if (handler === undefined) {
      set(id, undefined);
      return false;
    }
    if (handler.name !== id) {
      throw new Error(`The factory for tool ${id} built a handler named ${handler.name}; use shareHandler.`);
    }
    set(id, handler);
    return true;
  }

  function subagentHandler(name: string): ToolHandler | undefined {
    const subagent = subagentNameOf(name);
    if (subagent === undefined || !options.isConfiguredSubagent?.(subagent)) return undefined;
    const cached = subagentHandlers.get(name);
    if (cached) return cached;
    const base = handlers.get(SUBAGENTS_TOOL_ID);
    if (!base) return undefined;
    const handler = shareHandler(name, base);
    subagentHandlers.set(name, handler);
    return handler;
  }

  function getHandler(name: string): ToolHandler | undefined {
    const key = isMcpToolName(name) ? MCP_TOOL_ID : name;
    return handlers.get(key) ?? subagentHandler(key);
  }

  return {
    registerFactory(id, factory) {
      factories.set(id, factory);
    },
    registerByName,
    registerAll(deps) {
      return [...factories.keys()].filter((id) => registerByName(id, deps));
    },
    register(handler) {
      set(handler.name, handler);
    },
    getHandler,
    has: (name) => getHandler(name) !== undefined,
    async execute(name, input, ctx) {
      const handler = getHandler(name);
      if (!handler) throw new Error(`No handler registered for tool: ${name}`);
      return handler.execute(input, routedContext(ctx, name));
    },
    availableNames: () => [...handlers.keys()],
  };
}

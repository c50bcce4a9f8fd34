import { type LazySchemaMode, loadMcpConfig, type McpConfig, type McpConfigProblem } from "./config.js";
import {
  type ConnectionOptions,
  createServerConnection,
  DEFAULT_RESTART,
  type RestartPolicy,
  type ServerConnection,
} from "./connection.js";
import { McpServerError } from "./errors.js";
import type { McpCallResult, McpContent, McpHub, McpServerInfo } from "./hub.js";
import { fromResource, toCallResult, toContent } from "./results.js";
import { isTrusted } from "./trust.js";

export interface McpHubOptions {
  config: McpConfig;
  /** Where local servers run unless their config names a directory: the workspace root. */
  cwd: string;
  /** Whether a project server may start; default: all may. */
  isTrusted?(server: McpConfig["servers"][number]): boolean;
  /** Handshake and first listings of a server must finish within this. Default 30 s. */
  connectTimeoutMs?: number;
  restart?: Partial<RestartPolicy>;
  /** Sent to servers in the handshake. */
  clientVersion?: string;
  /** Where sign-ins to remote servers are kept (`~/.bowline`, see oauth.ts); absent: no OAuth. */
  home?: string;
}

export interface McpPromptMessage {
  role: "user" | "assistant";
  content: McpContent;
}

/** The hub with its lifecycle: servers start in the background; nothing here waits for them. */
export interface RunningMcpHub extends McpHub {
  readonly lazySchemas: LazySchemaMode;
  /** Configuration problems (bad files, bad entries), for the person. */
  readonly problems: readonly McpConfigProblem[];
  /** Starts every enabled, trusted server in parallel and returns at once. Idempotent; nothing once closed. */
  start(): void;
  /** Resolves when every started server is connected or has failed (CLI `mcp test`, tests). */
  whenSettled(): Promise<void>;
  /** A server prompt filled with `args`, e.g. for a slash command. */
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<{ description?: string; messages: McpPromptMessage[] }>;
  /** Stops every server (local processes are ended). */
  close(): Promise<void>;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/**
 * Reads the user's and project's MCP configuration and starts its servers in the background,
 * unless `start` is false (the host then calls `start()`, e.g. once the first model request is
 * on its way: spawning a process blocks for tens of milliseconds on a loaded machine).
 */
export function openMcpHub(options: {
  home: string;
  workspaceRoot: string;
  env: Record<string, string | undefined>;
  clientVersion?: string;
  start?: boolean;
}): RunningMcpHub {
  const hub = createMcpHub({
    config: loadMcpConfig(options.home, options.workspaceRoot, options.env),
    cwd: options.workspaceRoot,
    isTrusted: (server) => isTrusted(options.home, options.workspaceRoot, server),
    clientVersion: options.clientVersion,
    home: options.home,
  });
  if (options.start !== false) hub.start();
  return hub;
}

export function createMcpHub(options: McpHubOptions): RunningMcpHub {
  const listeners = new Set<() => void>();
  let snapshot: McpServerInfo[] | undefined;
  const changed = () => {
    snapshot = undefined;
    for (const listener of [...listeners]) listener();
  };
  const connectionOptions: Omit<ConnectionOptions, "config"> = {
    cwd: options.cwd,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    restart: { ...DEFAULT_RESTART, ...options.restart },
    clientVersion: options.clientVersion ?? "dev",
    ...(options.home ? { home: options.home } : {}),
    onChange: changed,
  };
  /** Servers that may run, by name; the others are listed from the config alone. */
  const connections = new Map<string, ServerConnection>();
  const idle = new Map<string, McpServerInfo>();
  for (const server of options.config.servers) {
    const base = { name: server.name, disabled: true, tools: [], autoApprove: server.autoApprove };
    if (server.disabled) idle.set(server.name, { ...base, status: "disabled" });
    else if (options.isTrusted && !options.isTrusted(server)) {
      idle.set(server.name, {
        ...base,
        status: "untrusted",
        error: `a project server that has not been trusted yet (its definition is in ${server.source}); trust it with \`bowline mcp trust ${server.name}\``,
      });
    } else connections.set(server.name, createServerConnection({ ...connectionOptions, config: server }));
  }
  for (const problem of options.config.problems) {
    if (problem.server && !idle.has(problem.server) && !connections.has(problem.server)) {
      idle.set(problem.server, {
        name: problem.server,
        disabled: true,
        tools: [],
        status: "invalid",
        error: `${problem.source}: ${problem.message}`,
      });
    }
  }
  const order = [...new Set([...options.config.servers.map((s) => s.name), ...idle.keys()])];
  let started = false;

  function connectionFor(server: string): ServerConnection {
    const connection = connections.get(server);
    if (connection) return connection;
    const info = idle.get(server);
    if (!info) {
      throw new McpServerError(`No MCP server named "${server}".`, "unavailable");
    }
    const why = info.status === "disabled" ? "is disabled" : `cannot be used: ${info.error}`;
    throw new McpServerError(`The MCP server "${server}" ${why}.`, "unavailable");
  }

  return {
    lazySchemas: options.config.lazySchemas,
    problems: options.config.problems,
    listServers() {
      snapshot ??= order.map((name) => connections.get(name)?.info() ?? idle.get(name)!);
      return snapshot;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (started) return;
      started = true;
      // One spawn per turn of the event loop: spawning is synchronous (tens of ms on a busy
      // machine), and whatever else is starting (the first model request) goes in between.
      const queue = [...connections.values()];
      const next = () => {
        queue.shift()?.start();
        if (queue.length > 0) setImmediate(next);
      };
      setImmediate(next);
    },
    async whenSettled() {
      await Promise.all([...connections.values()].map((connection) => connection.settled()));
    },
    async callTool(server, tool, args, signal): Promise<McpCallResult> {
      const result = await connectionFor(server).request(
        `the call of ${tool}`,
        (client, requestOptions) =>
          client.callTool({ name: tool, arguments: args }, undefined, requestOptions),
        signal,
      );
      return toCallResult(result);
    },
    async readResource(server, uri, signal) {
      const result = await connectionFor(server).request(
        `the read of ${uri}`,
        (client, requestOptions) => client.readResource({ uri }, requestOptions),
        signal,
      );
      return result.contents.map(fromResource);
    },
    async getPrompt(server, name, args, signal) {
      const result = await connectionFor(server).request(
        `the prompt ${name}`,
        (client, requestOptions) => client.getPrompt({ name, arguments: args }, requestOptions),
        signal,
      );
      return {
        ...(result.description ? { description: result.description } : {}),
        messages: result.messages.map((message) => ({
          role: message.role,
          content: toContent(message.content as { type: string }),
        })),
      };
    },
    async close() {
      started = true; // a late start() (the first request's timer) must not spawn anything now
      await Promise.all([...connections.values()].map((connection) => connection.close()));
      listeners.clear();
    },
  };
}

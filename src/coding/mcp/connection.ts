import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { McpServerConfig } from "./config.js";
import { isTimeout, McpServerError, messageOf, seconds, wake as waitForWake } from "./errors.js";
import type { McpServerInfo, McpServerStatus } from "./hub.js";
import { capInstructions } from "./instructions.js";
import { loadMcpSdk, type McpSdk } from "./load-sdk.js";
import { createOAuthProvider } from "./oauth.js";
import { emptyLists, loadLists, type ServerLists } from "./server-lists.js";
import type { OpenedTransport } from "./transports.js";

export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Restarts in a row (without a minute of stable running between) before giving up. */
  maxAttempts: number;
}

export const DEFAULT_RESTART: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 5 };
/** A connection that stays up this long resets the restart count. */
const STABLE_MS = 60_000;
/** After a remote transport reports an error, a ping must answer within this or the connection is lost. */
const PROBE_TIMEOUT_MS = 5_000;

export interface ConnectionOptions {
  config: McpServerConfig;
  cwd: string;
  /** The initialize handshake and first listings must finish within this (default 30 s). */
  connectTimeoutMs: number;
  restart: RestartPolicy;
  clientVersion: string;
  /** Where sign-ins to remote servers are kept (`~/.bowline`); absent: no OAuth. */
  home?: string;
  onChange(): void;
}

export interface ServerConnection {
  readonly config: McpServerConfig;
  info(): McpServerInfo;
  /** Starts connecting in the background (once). */
  start(): void;
  /** Resolves once the server is connected or has failed (never rejects). */
  settled(): Promise<void>;
  /**
   * Runs one request with the server's timeout and `signal`, waiting first (within the same
   * timeout) for a server that is starting or restarting. Failures of the server rather than
   * of the request reject with McpServerError.
   */
  request<T>(
    what: string,
    run: (client: Client, options: RequestOptions) => Promise<T>,
    signal: AbortSignal,
  ): Promise<T>;
  close(): Promise<void>;
}

/** The OAuth provider of a remote server, using what `bowline mcp login` stored. */
function authProviderFor(options: ConnectionOptions) {
  const { transport, name } = options.config;
  if (!options.home || transport.type === "stdio") return undefined;
  return createOAuthProvider({ home: options.home, server: name, url: transport.url });
}

export function createServerConnection(options: ConnectionOptions): ServerConnection {
  const { config } = options;
  const label = `The MCP server "${config.name}"`;
  let status: McpServerStatus = "starting";
  let error: string | undefined;
  /** How the last connection ended ("exited (its last output: ...)"), for calls it broke. */
  let lossReason = "went away";
  let lists: ServerLists = emptyLists();
  /** The connected server's instructions (initialize result), cut. */
  let instructions: string | undefined;
  let client: Client | undefined;
  /** The client of the latest attempt, connected or not (closed on shutdown, killing its process). */
  let current: Client | undefined;
  let opened: OpenedTransport | undefined;
  /** Bumped by every connection attempt and loss: a request compares it to see whether the server went away. */
  let generation = 0;
  let attempts = 0;
  let started = false;
  /** The SDK, loaded by the first connection attempt. */
  let sdk: McpSdk | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stableTimer: NodeJS.Timeout | undefined;
  const waiters: Array<() => void> = [];

  const setStatus = (next: McpServerStatus, reason?: string) => {
    status = next;
    error = reason;
    if (next !== "starting" && next !== "restarting") for (const wake of waiters.splice(0)) wake();
    options.onChange();
  };

  async function connect(): Promise<void> {
    const attempt = ++generation;
    try {
      sdk ??= await loadMcpSdk();
    } catch (cause) {
      return void setStatus("failed", `could not load the MCP client: ${messageOf(cause)}`);
    }
    if (attempt !== generation) return; // closed (or restarted) meanwhile
    const transport = sdk.openTransport(config.transport, options.cwd, authProviderFor(options));
    opened = transport;
    const candidate = new sdk.Client(
      { name: "bowline", version: options.clientVersion },
      {
        listChanged: {
          tools: { autoRefresh: false, onChanged: () => void refresh(candidate, attempt) },
          resources: { autoRefresh: false, onChanged: () => void refresh(candidate, attempt) },
          prompts: { autoRefresh: false, onChanged: () => void refresh(candidate, attempt) },
        },
      },
    );
    current = candidate;
    candidate.onclose = () => {
      if (attempt === generation && client === candidate) lost(`exited${stderrNote()}`);
    };
    // A remote server that dies leaves requests waiting on a cut stream; its transport reports
    // an error. A ping tells a passing hiccup from a lost server.
    candidate.onerror = (cause) => {
      if (config.transport.type !== "stdio" && attempt === generation && client === candidate) {
        void probe(candidate, cause);
      }
    };
    try {
      await candidate.connect(transport.transport, { timeout: options.connectTimeoutMs });
      const loaded = await loadLists(candidate, options.connectTimeoutMs);
      if (attempt !== generation || status === "closed") return void (await candidate.close());
      client = candidate;
      lists = loaded;
      instructions = capInstructions(candidate.getInstructions());
      clearTimeout(stableTimer);
      stableTimer = setTimeout(() => (attempts = 0), STABLE_MS).unref();
      setStatus("connected");
    } catch (cause) {
      await candidate.close().catch(() => undefined);
      if (attempt !== generation || status === "closed") return;
      const why = isTimeout(cause)
        ? `did not answer within ${seconds(options.connectTimeoutMs)}`
        : `could not start: ${messageOf(cause)}`;
      if (status === "restarting") scheduleRestart(`${why}${stderrNote()}`);
      else setStatus("failed", `${why}${stderrNote()}`);
    }
  }

  async function refresh(from: Client, attempt: number): Promise<void> {
    try {
      const loaded = await loadLists(from, options.connectTimeoutMs);
      if (attempt !== generation || client !== from) return;
      lists = loaded;
      options.onChange();
    } catch {
      // The old lists stay; a lost connection is reported through onclose.
    }
  }

  let probing = false;
  async function probe(probed: Client, cause: Error): Promise<void> {
    if (probing) return;
    probing = true;
    try {
      await probed.ping({ timeout: PROBE_TIMEOUT_MS });
    } catch {
      if (client === probed) lost(`lost its connection (${cause.message})`);
    } finally {
      probing = false;
    }
  }

  function lost(reason: string): void {
    generation++;
    lossReason = reason;
    const gone = client;
    client = undefined;
    clearTimeout(stableTimer);
    void gone?.close().catch(() => undefined);
    scheduleRestart(reason);
  }

  function scheduleRestart(reason: string): void {
    if (attempts >= options.restart.maxAttempts) {
      setStatus("failed", `${reason}; gave up after ${attempts} restarts`);
      return;
    }
    const delay = Math.min(options.restart.maxDelayMs, options.restart.initialDelayMs * 2 ** attempts);
    attempts++;
    setStatus("restarting", reason);
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
  }

  function stderrNote(): string {
    const tail = opened?.stderrTail() ?? "";
    return tail ? ` (its last output: ${tail.split("\n").slice(-3).join(" | ")})` : "";
  }

  /** The client once usable, waiting for a (re)start within `deadline`. */
  async function usableClient(signal: AbortSignal, deadline: number): Promise<Client> {
    while (status === "starting" || status === "restarting") {
      const wait = deadline - Date.now();
      if (wait <= 0 || signal.aborted) break;
      await waitForWake(waiters, signal, wait);
    }
    if (signal.aborted) throw new McpServerError("The call was cancelled.", "aborted");
    if (status === "connected" && client) return client;
    throw new McpServerError(unavailableMessage(), "unavailable");
  }

  function unavailableMessage(): string {
    switch (status) {
      case "starting":
        return `${label} is still starting; try again shortly or use other tools.`;
      case "restarting":
        return `${label} is restarting after it ${error}; try again shortly.`;
      case "disabled":
        return `${label} is disabled.`;
      case "closed":
        return `${label} has been shut down.`;
      default:
        return `${label} is not available: ${error ?? status}.`;
    }
  }

  return {
    config,
    info: () => ({
      name: config.name,
      status,
      ...(error ? { error } : {}),
      // A restarting server keeps its tools on offer: calls wait for it within their timeout.
      ...(status === "connected" || status === "restarting"
        ? { ...lists, ...(instructions ? { instructions } : {}) }
        : emptyLists()),
      autoApprove: config.autoApprove,
    }),
    start() {
      if (started || status === "closed") return;
      started = true;
      void connect();
    },
    settled: () =>
      status === "starting" || status === "restarting"
        ? new Promise<void>((resolve) => waiters.push(resolve))
        : Promise.resolve(),
    async request(what, run, signal) {
      const deadline = Date.now() + config.timeoutMs;
      const connected = await usableClient(signal, deadline);
      const attempt = generation;
      const timeout = Math.max(1, deadline - Date.now());
      try {
        return await run(connected, { signal, timeout, maxTotalTimeout: timeout });
      } catch (cause) {
        if (signal.aborted) throw new McpServerError("The call was cancelled.", "aborted");
        if (isTimeout(cause)) {
          throw new McpServerError(
            `${label} did not answer ${what} within ${seconds(config.timeoutMs)} (its timeout); the call was abandoned.`,
            "timeout",
          );
        }
        if (attempt === generation && status === "connected" && sdk?.isTransportFailure(cause)) {
          lost(`lost its connection (${messageOf(cause)})`);
        }
        if (attempt !== generation) {
          const next = status === "restarting" ? "It is being restarted" : "It will not be restarted";
          throw new McpServerError(
            `${label} ${lossReason} during ${what}. ${next}; the call did not complete: check its effects before retrying.`,
            "crashed",
          );
        }
        throw cause;
      }
    },
    async close() {
      generation++;
      clearTimeout(timer);
      clearTimeout(stableTimer);
      client = undefined;
      setStatus("closed");
      await current?.close().catch(() => undefined);
    },
  };
}
